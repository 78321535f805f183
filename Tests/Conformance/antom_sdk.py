#!/usr/bin/env python3
"""Conformance of the Antom sandbox with the official Python SDK.

Drives a running sandbox (Antom's API at the sandbox's root) with `global-open-sdk-python`: request
signing and response verification by the SDK's own client, EasySafePay (createPaymentSession, a token
obtained by completing the session through the sandbox admin API, pay with that token), card vaulting
(createVaultingSession, inquireVaulting, pay with the card token, capture), inquiryPayment, cancel,
refund, inquiryRefund, idempotent replays and REPEAT_REQ_INCONSISTENT, unsigned rejections, and the
sandbox's notifications verified with the SDK's webhook signature checker.

Usage:
    antom_sdk.py BASE_URL [CLIENT_ID] MERCHANT_PRIVATE_KEY_PEM_FILE

CLIENT_ID defaults to SANDBOX_5X00000000000000 (a sandbox client id, so the SDK calls
/ams/sandbox/api/...). The private key file is the merchant's RSA key in PEM (PKCS#8 or PKCS#1), whose
public half the sandbox was started with; Antom's public key is read from /_sandbox/antom/public-key.
Prints one line per check and a closing "N passed, N failed" line; exits 1 on any failure.
"""

import base64
import http.client
import http.server
import json
import sys
import threading
import time
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from urllib.parse import urlparse

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from com.alipay.ams.api.default_alipay_client import DefaultAlipayClient
from com.alipay.ams.api.exception.exception import AlipayApiException
from com.alipay.ams.api.model.agreement_info import AgreementInfo
from com.alipay.ams.api.model.amount import Amount
from com.alipay.ams.api.model.buyer import Buyer
from com.alipay.ams.api.model.env import Env
from com.alipay.ams.api.model.order import Order
from com.alipay.ams.api.model.payment_factor import PaymentFactor
from com.alipay.ams.api.model.payment_method import PaymentMethod
from com.alipay.ams.api.model.product_code_type import ProductCodeType
from com.alipay.ams.api.model.result_status_type import ResultStatusType
from com.alipay.ams.api.model.settlement_strategy import SettlementStrategy
from com.alipay.ams.api.model.transaction_status_type import TransactionStatusType
from com.alipay.ams.api.model.transaction_type import TransactionType
from com.alipay.ams.api.net import default_http_rpc
from com.alipay.ams.api.request.notify.alipay_auth_notify import AlipayAuthNotify
from com.alipay.ams.api.request.notify.alipay_capture_result_notify import AlipayCaptureResultNotify
from com.alipay.ams.api.request.notify.alipay_pay_result_notify import AlipayPayResultNotify
from com.alipay.ams.api.request.notify.alipay_refund_notify import AlipayRefundNotify
from com.alipay.ams.api.request.notify.alipay_vaulting_notify import AlipayVaultingNotify
from com.alipay.ams.api.request.pay.alipay_capture_request import AlipayCaptureRequest
from com.alipay.ams.api.request.pay.alipay_inquiry_refund_request import AlipayInquiryRefundRequest
from com.alipay.ams.api.request.pay.alipay_pay_cancel_request import AlipayPayCancelRequest
from com.alipay.ams.api.request.pay.alipay_pay_query_request import AlipayPayQueryRequest
from com.alipay.ams.api.request.pay.alipay_pay_request import AlipayPayRequest
from com.alipay.ams.api.request.pay.alipay_payment_session_request import AlipayPaymentSessionRequest
from com.alipay.ams.api.request.pay.alipay_refund_request import AlipayRefundRequest
from com.alipay.ams.api.request.pay.alipay_vaulting_query_request import AlipayVaultingQueryRequest
from com.alipay.ams.api.request.pay.alipay_vaulting_session_request import AlipayVaultingSessionRequest
from com.alipay.ams.api.response.pay.alipay_capture_response import AlipayCaptureResponse
from com.alipay.ams.api.response.pay.alipay_inquiry_refund_response import AlipayInquiryRefundResponse
from com.alipay.ams.api.response.pay.alipay_pay_cancel_response import AlipayPayCancelResponse
from com.alipay.ams.api.response.pay.alipay_pay_query_response import AlipayPayQueryResponse
from com.alipay.ams.api.response.pay.alipay_pay_response import AlipayPayResponse
from com.alipay.ams.api.response.pay.alipay_payment_session_response import AlipayPaymentSessionResponse
from com.alipay.ams.api.response.pay.alipay_refund_response import AlipayRefundResponse
from com.alipay.ams.api.response.pay.alipay_vaulting_query_response import AlipayVaultingQueryResponse
from com.alipay.ams.api.response.pay.alipay_vaulting_session_response import AlipayVaultingSessionResponse
from com.alipay.ams.api.tools.signature_tool import sign, verify
from com.alipay.ams.api.tools.webhook_tool import check_signature

DEFAULT_CLIENT_ID = "SANDBOX_5X00000000000000"
VISA = "4054695723100768"
ACK = b'{"result":{"resultCode":"SUCCESS","resultStatus":"S","resultMessage":"success"}}'

RESULTS = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    RESULTS["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else "  " + str(detail)))


def use_plain_http():
    """The SDK always opens HTTPS on port 443; the sandbox speaks plain HTTP on loopback. Only the
    connection is replaced: the SDK still builds, signs, sends and verifies everything itself."""

    def connection(url, timeout=15):
        target = urlparse(url)
        return http.client.HTTPConnection(target.hostname, target.port or 80, timeout=timeout)

    setattr(default_http_rpc, "__get_http_connection", connection)


def bare_key(pem_text):
    """The SDK takes keys as bare base64 (it adds the PEM armour itself)."""
    return "".join(line.strip() for line in pem_text.splitlines() if line and not line.startswith("-----"))


def stranger_key():
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    der = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())
    return base64.b64encode(der).decode()


def admin(base, method, path, payload=None):
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(base + "/_sandbox/antom/" + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def new_id(prefix):
    return "{}-{}".format(prefix, uuid.uuid4().hex[:16])


def amount(value):
    return Amount("USD", str(value))


def order(value):
    result = Order()
    result.reference_order_id = new_id("order")
    result.order_description = "conformance order"
    result.order_amount = amount(value)
    buyer = Buyer()
    buyer.reference_buyer_id = "buyer-1"
    result.buyer = buyer
    return result


def env():
    result = Env()
    result.terminal_type = "APP"
    result.os_type = "IOS"
    return result


def settlement():
    result = SettlementStrategy()
    result.settlement_currency = "USD"
    return result


def session_request(hook_url, auth_state, expiry):
    request = AlipayPaymentSessionRequest()
    request.product_code = ProductCodeType.AGREEMENT_PAYMENT
    request.product_scene = "EASY_PAY"
    request.payment_request_id = new_id("session")
    request.payment_amount = amount(1500)
    wallet = PaymentMethod()
    wallet.payment_method_type = "GCASH"
    request.payment_method = wallet
    request.order = order(1500)
    request.env = env()
    request.settlement_strategy = settlement()
    request.payment_notify_url = hook_url
    request.payment_redirect_url = "https://shop.example/return"
    agreement = AgreementInfo()
    agreement.auth_state = auth_state
    agreement.user_login_id = "conformance@example.com"
    request.agreement_info = agreement
    request.payment_session_expiry_time = expiry.isoformat()
    return request


def wallet_pay(token, value, hook_url):
    request = AlipayPayRequest()
    request.product_code = ProductCodeType.AGREEMENT_PAYMENT
    request.payment_request_id = new_id("pay")
    request.payment_amount = amount(value)
    method = PaymentMethod()
    method.payment_method_type = "GCASH"
    method.payment_method_id = token
    request.payment_method = method
    request.order = order(value)
    request.env = env()
    request.settlement_strategy = settlement()
    request.payment_notify_url = hook_url
    request.payment_redirect_url = "https://shop.example/return"
    return request


def card_pay(card_token, value, capture_mode, hook_url):
    request = wallet_pay(card_token, value, hook_url)
    request.product_code = ProductCodeType.CASHIER_PAYMENT
    request.payment_method.payment_method_type = "CARD"
    factor = PaymentFactor()
    factor.is_authorization = True
    factor.capture_mode = capture_mode
    request.payment_factor = factor
    return request


class Inbox(http.server.BaseHTTPRequestHandler):
    """The merchant's notification endpoint; the first delivery is answered with a non-acknowledgement."""
    received = []
    non_acks_left = 1
    lock = threading.Lock()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        with Inbox.lock:
            acknowledged = Inbox.non_acks_left == 0
            if not acknowledged:
                Inbox.non_acks_left -= 1
            Inbox.received.append({
                "path": self.path, "client_id": self.headers.get("client-id"),
                "request_time": self.headers.get("request-time"), "signature": self.headers.get("signature"),
                "body": body.decode("utf-8"), "acknowledged": acknowledged,
            })
        reply = ACK if acknowledged else b"OK"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def result_is(response, status, code):
    result = response.result
    return result is not None and result.result_status == status and result.result_code == code


def main(argv):
    if len(argv) == 3:
        base, client_id, key_file = argv[1], DEFAULT_CLIENT_ID, argv[2]
    elif len(argv) == 4:
        base, client_id, key_file = argv[1], argv[2], argv[3]
    else:
        print(__doc__)
        return 2
    base = base.rstrip("/")
    use_plain_http()
    with open(key_file) as handle:
        merchant_key = bare_key(handle.read())
    hook_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Inbox)
    threading.Thread(target=hook_server.serve_forever, daemon=True).start()
    hook_url = "http://127.0.0.1:{}/antom/notify".format(hook_server.server_address[1])
    try:
        run(base, client_id, merchant_key, hook_url)
    except Exception as error:  # noqa: BLE001 - reported as a failed check, the summary still prints
        check("scenario ran to the end", False, repr(error))
    hook_server.shutdown()
    print("{} passed, {} failed".format(RESULTS["passed"], RESULTS["failed"]))
    return 0 if RESULTS["failed"] == 0 else 1


def run(base, client_id, merchant_key, hook_url):
    status, served = admin(base, "GET", "public-key")
    check("sandbox public key served", status == 200 and bool(served.get("publicKey")), status)
    antom_key = served["publicKey"]

    # The SDK's normal client verifies every answer's signature with Antom's public key.
    client = DefaultAlipayClient(base, client_id, merchant_key, antom_key)

    def call(request, response_type):
        body = client.execute(request)
        return response_type(body), json.loads(body)

    # Rejections: a request signed with another key gets an unsigned F INVALID_SIGNATURE, which the SDK refuses.
    query = AlipayPayQueryRequest()
    query.payment_request_id = "nothing-here"
    try:
        DefaultAlipayClient(base, client_id, stranger_key(), antom_key).execute(query)
        check("wrong merchant key is refused", False, "no error")
    except AlipayApiException as error:
        check("wrong merchant key is refused", "signature" in str(error), error)
    raw = raw_call(base, "/ams/api/v1/payments/inquiryPayment", client_id, stranger_key(), {"paymentId": "x"})
    check("bad signature answered unsigned F INVALID_SIGNATURE",
          raw["json"]["result"]["resultCode"] == "INVALID_SIGNATURE" and "signature" not in raw["headers"],
          raw)
    other_antom_key = bare_key(rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
                               .public_bytes(serialization.Encoding.PEM,
                                             serialization.PublicFormat.SubjectPublicKeyInfo).decode())
    try:
        DefaultAlipayClient(base, client_id, merchant_key, other_antom_key).execute(query)
        check("the SDK verifies answer signatures", False, "accepted an answer signed by another key")
    except AlipayApiException as error:
        check("the SDK verifies answer signatures", "verify" in str(error), error)
    missing, _ = call(query, AlipayPayQueryResponse)
    check("unknown payment is ORDER_NOT_EXIST", result_is(missing, ResultStatusType.F, "ORDER_NOT_EXIST"))

    # Both path forms and the /antom mount are verified by the SDK's own verify().
    for path in ["/ams/api/v1/payments/inquiryPayment", "/antom/ams/sandbox/api/v1/payments/inquiryPayment"]:
        raw = raw_call(base, path, client_id, merchant_key, {"paymentRequestId": "nothing-here"})
        check("signed answer on " + path, raw["json"]["result"]["resultCode"] == "ORDER_NOT_EXIST"
              and raw_verified(raw, path, antom_key), raw["headers"])

    # EasySafePay first payment: createPaymentSession with agreementInfo.
    auth_state = new_id("auth")
    expiry = (datetime.now(timezone.utc) + timedelta(minutes=30)).replace(microsecond=0)
    session, _ = call(session_request(hook_url, auth_state, expiry), AlipayPaymentSessionResponse)
    check("createPaymentSession", result_is(session, ResultStatusType.S, "SUCCESS")
          and bool(session.payment_session_id) and bool(session.payment_session_data)
          and session.payment_session_expiry_time == expiry.isoformat(), session.payment_session_expiry_time)
    too_long = session_request(hook_url, auth_state, datetime.now(timezone.utc) + timedelta(hours=2))
    refused, _ = call(too_long, AlipayPaymentSessionResponse)
    check("session longer than 1 h is PARAM_ILLEGAL", result_is(refused, ResultStatusType.F, "PARAM_ILLEGAL"))

    status, completed = admin(base, "POST", "sessions/{}/complete".format(session.payment_session_id),
                              {"approve": True})
    token = (completed or {}).get("accessToken")
    check("session completed with an access token", status == 200 and bool(token)
          and completed.get("status") == "SUCCESS", completed)
    status, again = admin(base, "POST", "sessions/{}/complete".format(session.payment_session_id), {})
    check("completed session cannot complete again", status == 409, again)

    # Subsequent payment with the access token, replay and inconsistent replay.
    pay_request = wallet_pay(token, 2500, hook_url)
    paid, paid_json = call(pay_request, AlipayPayResponse)
    check("pay with access token", result_is(paid, ResultStatusType.S, "SUCCESS") and bool(paid.payment_id))
    replay, replay_json = call(pay_request, AlipayPayResponse)
    check("idempotent replay returns the first answer", replay_json == paid_json)
    _, ledger = admin(base, "GET", "ledger")
    check("replay moved money once", len([e for e in ledger if e["paymentId"] == paid.payment_id]) == 1, ledger)
    pay_request.payment_amount = amount(2600)
    inconsistent, _ = call(pay_request, AlipayPayResponse)
    check("same id, other body is REPEAT_REQ_INCONSISTENT",
          result_is(inconsistent, ResultStatusType.F, "REPEAT_REQ_INCONSISTENT"))

    query = AlipayPayQueryRequest()
    query.payment_id = paid.payment_id
    inquiry, _ = call(query, AlipayPayQueryResponse)
    check("inquiryPayment SUCCESS", inquiry.payment_status == TransactionStatusType.SUCCESS
          and inquiry.payment_amount.value == "2500", inquiry.payment_status)

    # Refund and inquiryRefund.
    refund_request = AlipayRefundRequest()
    refund_request.refund_request_id = new_id("refund")
    refund_request.payment_id = paid.payment_id
    refund_request.refund_amount = amount(1000)
    refund_request.refund_reason = "conformance"
    refund, _ = call(refund_request, AlipayRefundResponse)
    check("refund", result_is(refund, ResultStatusType.S, "SUCCESS") and bool(refund.refund_id))
    refund_query = AlipayInquiryRefundRequest()
    refund_query.refund_request_id = refund_request.refund_request_id
    refund_state, _ = call(refund_query, AlipayInquiryRefundResponse)
    check("inquiryRefund", refund_state.refund_status == TransactionStatusType.SUCCESS
          and refund_state.refund_id == refund.refund_id, refund_state.refund_status)
    excess = AlipayRefundRequest()
    excess.refund_request_id = new_id("refund")
    excess.payment_id = paid.payment_id
    excess.refund_amount = amount(1501)
    excess_answer, _ = call(excess, AlipayRefundResponse)
    check("refund above the rest is REFUND_AMOUNT_EXCEED",
          result_is(excess_answer, ResultStatusType.F, "REFUND_AMOUNT_EXCEED"))

    # Magic amounts and cancel.
    declined, _ = call(wallet_pay(token, 1402, hook_url), AlipayPayResponse)
    check("amount ...402 declined", result_is(declined, ResultStatusType.F, "USER_BALANCE_NOT_ENOUGH"))
    processing_request = wallet_pay(token, 1408, hook_url)
    processing, _ = call(processing_request, AlipayPayResponse)
    check("amount ...408 in process", result_is(processing, ResultStatusType.U, "PAYMENT_IN_PROCESS"))
    cancel = AlipayPayCancelRequest()
    cancel.payment_request_id = processing_request.payment_request_id
    cancelled, _ = call(cancel, AlipayPayCancelResponse)
    check("cancel", result_is(cancelled, ResultStatusType.S, "SUCCESS")
          and cancelled.payment_id == processing.payment_id and bool(cancelled.cancel_time))
    query = AlipayPayQueryRequest()
    query.payment_request_id = processing_request.payment_request_id
    inquiry, _ = call(query, AlipayPayQueryResponse)
    check("cancelled payment inquires CANCELLED", inquiry.payment_status == TransactionStatusType.CANCELLED,
          inquiry.payment_status)

    # Vaulting, then a MANUAL card payment captured later.
    vaulting_request = AlipayVaultingSessionRequest()
    vaulting_request.payment_method_type = "CARD"
    vaulting_request.vaulting_request_id = new_id("vault")
    vaulting_request.vaulting_notification_url = hook_url
    vaulting_request.redirect_url = "https://shop.example/vaulted"
    vaulting_request.merchant_region = "US"
    vaulting, _ = call(vaulting_request, AlipayVaultingSessionResponse)
    check("createVaultingSession", result_is(vaulting, ResultStatusType.S, "SUCCESS")
          and bool(vaulting.vaulting_session_id) and bool(vaulting.vaulting_session_data))
    status, vaulted = admin(base, "POST", "vaulting/{}/complete".format(vaulting.vaulting_session_id), {
        "cardNumber": VISA, "expiryMonth": "12", "expiryYear": "2030", "cvv": "123", "holderName": "Conformance",
    })
    card_token = (vaulted or {}).get("cardToken")
    check("card vaulted", status == 200 and bool(card_token), vaulted)
    vault_query = AlipayVaultingQueryRequest()
    vault_query.vaulting_request_id = vaulting_request.vaulting_request_id
    vault_state, _ = call(vault_query, AlipayVaultingQueryResponse)
    card = vault_state.payment_method_detail.card if vault_state.payment_method_detail else None
    check("inquireVaulting", vault_state.vaulting_status == "SUCCESS" and card is not None
          and card.card_token == card_token and card.masked_card_no == "************0768"
          and card.brand is not None and card.brand.value == "VISA", vault_state.vaulting_status)
    unknown_vault = AlipayVaultingQueryRequest()
    unknown_vault.vaulting_request_id = "nothing-here"
    unknown_state, _ = call(unknown_vault, AlipayVaultingQueryResponse)
    check("unknown vaulting is VAULTING_NOT_EXIST",
          result_is(unknown_state, ResultStatusType.F, "VAULTING_NOT_EXIST"))

    authorised, _ = call(card_pay(card_token, 3000, "MANUAL", hook_url), AlipayPayResponse)
    check("card authorisation", result_is(authorised, ResultStatusType.S, "SUCCESS"))
    query = AlipayPayQueryRequest()
    query.payment_id = authorised.payment_id
    inquiry, _ = call(query, AlipayPayQueryResponse)
    check("authorised card payment is PENDING", inquiry.payment_status == TransactionStatusType.PENDING,
          inquiry.payment_status)
    capture_request = AlipayCaptureRequest()
    capture_request.capture_request_id = new_id("capture")
    capture_request.payment_id = authorised.payment_id
    capture_request.capture_amount = amount(3000)
    capture_request.is_last_capture = True
    captured, _ = call(capture_request, AlipayCaptureResponse)
    check("capture", result_is(captured, ResultStatusType.S, "SUCCESS") and bool(captured.capture_id))
    inquiry, _ = call(query, AlipayPayQueryResponse)
    transactions = inquiry.transactions or []
    check("captured payment is SUCCESS with a CAPTURE transaction",
          inquiry.payment_status == TransactionStatusType.SUCCESS and len(transactions) == 1
          and transactions[0].transaction_type == TransactionType.CAPTURE
          and transactions[0].transaction_id == captured.capture_id, inquiry.payment_status)
    automatic, _ = call(card_pay(card_token, 1200, "AUTOMATIC", hook_url), AlipayPayResponse)
    check("card payment captured at once", result_is(automatic, ResultStatusType.S, "SUCCESS"))

    # The user cancels the wallet authorisation: the token stops working.
    status, _ = admin(base, "POST", "tokens/{}/cancel".format(token))
    check("token cancelled", status == 200, status)
    refused, _ = call(wallet_pay(token, 500, hook_url), AlipayPayResponse)
    check("cancelled token is INVALID_ACCESS_TOKEN", result_is(refused, ResultStatusType.F, "INVALID_ACCESS_TOKEN"))

    check_notifications(base, client_id, antom_key, token, auth_state, paid, refund, captured, card_token,
                        vaulting_request.vaulting_request_id)


def check_notifications(base, client_id, antom_key, token, auth_state, paid, refund, captured, card_token,
                        vaulting_request_id):
    expected = {"TOKEN_CREATED", "TOKEN_CANCELED", "PAYMENT_RESULT", "VAULTING_RESULT", "REFUND_RESULT",
                "CAPTURE_RESULT"}
    deadline = time.time() + 15
    kinds = set()
    while time.time() < deadline:
        with Inbox.lock:
            delivered = [entry for entry in Inbox.received if entry["acknowledged"]]
        kinds = {kind_of(json.loads(entry["body"])) for entry in delivered}
        if expected <= kinds:
            break
        time.sleep(0.2)
    check("every kind of notification arrived", expected <= kinds, sorted(kinds))
    with Inbox.lock:
        received = list(Inbox.received)
    verified = [notification_verifies(entry, antom_key) for entry in received]
    check("every notification verifies with the SDK webhook tool", received and all(verified),
          [entry["body"][:60] for entry, ok in zip(received, verified) if not ok])
    check("notifications carry the client id", all(entry["client_id"] == client_id for entry in received))
    first = received[0] if received else None
    check("a notification not acknowledged is sent again", first is not None and not first["acknowledged"]
          and any(entry["acknowledged"] and entry["body"] == first["body"] for entry in received[1:]))
    _, attempts = admin(base, "GET", "notifications")
    check("the sandbox records the unacknowledged attempt", any(not a["acknowledged"] for a in attempts or [])
          and any(a["acknowledged"] for a in attempts or []))

    bodies = [json.loads(entry["body"]) for entry in received if entry["acknowledged"]]
    raw = {kind_of(body): entry["body"] for body, entry in
           zip(bodies, [e for e in received if e["acknowledged"]])}
    created = [AlipayAuthNotify(entry["body"]) for entry in received if entry["acknowledged"]
               and json.loads(entry["body"]).get("authorizationNotifyType") == "TOKEN_CREATED"]
    check("TOKEN_CREATED parses with the SDK", any(n.access_token == token and n.auth_state == auth_state
                                                    for n in created))
    cancelled = [AlipayAuthNotify(entry["body"]) for entry in received if entry["acknowledged"]
                 and json.loads(entry["body"]).get("authorizationNotifyType") == "TOKEN_CANCELED"]
    check("TOKEN_CANCELED parses with the SDK", any(n.access_token == token and n.reason for n in cancelled))
    payments = [AlipayPayResultNotify(entry["body"]) for entry in received if entry["acknowledged"]
                and json.loads(entry["body"]).get("notifyType") == "PAYMENT_RESULT"]
    check("PAYMENT_RESULT parses with the SDK", any(n.payment_id == paid.payment_id
                                                     and n.result.result_status == ResultStatusType.S
                                                     for n in payments))
    check("declined payment notified as F", any(n.result.result_code == "USER_BALANCE_NOT_ENOUGH"
                                                for n in payments))
    if "VAULTING_RESULT" in raw:
        vault = AlipayVaultingNotify(raw["VAULTING_RESULT"])
        card = vault.payment_method_detail.card if vault.payment_method_detail else None
        check("VAULTING_RESULT parses with the SDK", vault.vaulting_request_id == vaulting_request_id
              and card is not None and card.card_token == card_token)
    if "REFUND_RESULT" in raw:
        refund_notice = AlipayRefundNotify(raw["REFUND_RESULT"])
        check("REFUND_RESULT parses with the SDK", refund_notice.refund_id == refund.refund_id)
    if "CAPTURE_RESULT" in raw:
        capture_notice = AlipayCaptureResultNotify(raw["CAPTURE_RESULT"])
        check("CAPTURE_RESULT parses with the SDK", capture_notice.capture_id == captured.capture_id)


def notification_verifies(entry, antom_key):
    try:
        return check_signature("POST", entry["path"], entry["client_id"], entry["request_time"], entry["body"],
                               entry["signature"], antom_key)
    except Exception:  # noqa: BLE001 - the SDK raises on a bad signature; a failed check
        return False


def kind_of(body):
    return body.get("notifyType") or body.get("authorizationNotifyType")


def raw_call(base, path, client_id, key, payload):
    """A request signed with the SDK's sign() but sent by hand, to reach any path form."""
    body = json.dumps(payload)
    request_time = str(int(time.time() * 1000))
    signature = sign("POST", path, client_id, request_time, body, key)
    request = urllib.request.Request(base + path, data=body.encode(), method="POST", headers={
        "Content-Type": "application/json; charset=UTF-8", "client-id": client_id, "request-time": request_time,
        "signature": "algorithm=RSA256,keyVersion=1,signature=" + signature,
    })
    with urllib.request.urlopen(request) as response:
        headers = {name.lower(): value for name, value in response.getheaders()}
        text = response.read().decode("utf-8")
    return {"headers": headers, "text": text, "json": json.loads(text)}


def raw_verified(raw, path, antom_key):
    headers = raw["headers"]
    if "signature" not in headers or "response-time" not in headers:
        return False
    try:
        return verify("POST", path, headers["client-id"], headers["response-time"], raw["text"],
                      headers["signature"].split("signature=")[1], antom_key)
    except Exception:  # noqa: BLE001 - a verification error is a failed check
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv))
