#!/usr/bin/env python3
"""Conformance of the Worldline Direct sandbox with the official Python server SDK.

Drives a running sandbox (Worldline's API at the sandbox's root) with `onlinepayments-sdk-python3`:
v1HMAC signing, sessions, payments with clear and encrypted card data, declines, 3-D Secure
redirect, capture / cancel / refund, idempotence and webhook signature validation.

Usage:
    worldline_direct_sdk.py BASE_URL [MERCHANT_ID API_KEY_ID SECRET_API_KEY WEBHOOK_KEY_ID WEBHOOK_SECRET]

Defaults match the sandbox merchant MERCH1 / KEYID123 / secret-key-abc / WHKEY1 / webhook-secret.
Prints one line per check and a closing "N passed, N failed" line; exits 1 on any failure.
"""

import http.server
import json
import sys
import threading
import time
import urllib.request
import uuid
from urllib.parse import urlparse

from onlinepayments.sdk.call_context import CallContext
from onlinepayments.sdk.communication.request_header import RequestHeader
from onlinepayments.sdk.communicator_configuration import CommunicatorConfiguration
from onlinepayments.sdk.declined_payment_exception import DeclinedPaymentException
from onlinepayments.sdk.api_exception import ApiException
from onlinepayments.sdk.domain.amount_of_money import AmountOfMoney
from onlinepayments.sdk.domain.cancel_payment_request import CancelPaymentRequest
from onlinepayments.sdk.domain.capture_payment_request import CapturePaymentRequest
from onlinepayments.sdk.domain.card import Card
from onlinepayments.sdk.domain.card_payment_method_specific_input import CardPaymentMethodSpecificInput
from onlinepayments.sdk.domain.create_payment_request import CreatePaymentRequest
from onlinepayments.sdk.domain.feedbacks import Feedbacks
from onlinepayments.sdk.domain.order import Order
from onlinepayments.sdk.domain.refund_request import RefundRequest
from onlinepayments.sdk.domain.session_request import SessionRequest
from onlinepayments.sdk.factory import Factory
from onlinepayments.sdk.json.default_marshaller import DefaultMarshaller
from onlinepayments.sdk.webhooks.in_memory_secret_key_store import InMemorySecretKeyStore
from onlinepayments.sdk.webhooks.webhooks_helper import WebhooksHelper

AUTHORISED = "4012000033330026"
DECLINED = "4012003360932265"
CHALLENGE = "4012001775445550"

RESULTS = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    RESULTS["passed" if condition else "failed"] += 1
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else "  " + str(detail)))


def make_client(base_url, api_key_id, secret):
    # The SDK takes a host without a path; the sandbox answers Worldline's API at its root as well.
    parsed = urlparse(base_url)
    configuration = CommunicatorConfiguration(
        api_endpoint="{}://{}".format(parsed.scheme, parsed.netloc), api_key_id=api_key_id,
        secret_api_key=secret, authorization_type="v1HMAC", connect_timeout=5, socket_timeout=20,
        max_connections=2, integrator="switchyard-conformance")
    return Factory.create_client_from_configuration(configuration)


def payment_request(card_number, amount, mode, webhook_url=None, encrypted=None):
    request = CreatePaymentRequest()
    order = Order()
    money = AmountOfMoney()
    money.amount = amount
    money.currency_code = "EUR"
    order.amount_of_money = money
    request.order = order
    card_input = CardPaymentMethodSpecificInput()
    card_input.authorization_mode = mode
    if encrypted is None:
        card = Card()
        card.card_number = card_number
        card.expiry_date = "1230"
        card.cvv = "123"
        card.cardholder_name = "Conformance Holder"
        card_input.card = card
    else:
        request.encrypted_customer_input = encrypted
    card_input.return_url = "https://shop.example/return"
    request.card_payment_method_specific_input = card_input
    if webhook_url:
        feedbacks = Feedbacks()
        feedbacks.webhooks_urls = [webhook_url]
        request.feedbacks = feedbacks
    return request


class Inbox(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        Inbox.received.append((body, [RequestHeader(k, v) for k, v in self.headers.items()]))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    base = argv[1].rstrip("/")
    merchant, key_id, secret, wh_key, wh_secret = (argv[2:7] + [None] * 5)[:5] if len(argv) > 2 else [None] * 5
    merchant = merchant or "MERCH1"
    key_id = key_id or "KEYID123"
    secret = secret or "secret-key-abc"
    wh_key = wh_key or "WHKEY1"
    wh_secret = wh_secret or "webhook-secret"

    hook_server = http.server.HTTPServer(("127.0.0.1", 0), Inbox)
    threading.Thread(target=hook_server.serve_forever, daemon=True).start()
    hook_url = "http://127.0.0.1:{}/hook".format(hook_server.server_address[1])

    client = make_client(base, key_id, secret)
    payments = client.merchant(merchant).payments()

    # Authentication: a wrong secret is refused.
    try:
        make_client(base, key_id, "wrong-secret").merchant(merchant).sessions().create_session(SessionRequest())
        check("wrong secret is refused", False, "no error")
    except ApiException as error:
        check("wrong secret is refused", error.status_code == 401, error.status_code)

    # Session + encrypted card data (encrypted by the sandbox's SDK-helper endpoint).
    session = client.merchant(merchant).sessions().create_session(SessionRequest())
    check("session created", bool(session.client_session_id) and bool(session.customer_id))
    check("clientApiUrl under the mount", session.client_api_url.endswith("/worldline-direct/client"))
    encrypt = urllib.request.Request(
        base + "/_sandbox/worldline-direct/encrypt",
        data=json.dumps({
            "clientSessionId": session.client_session_id, "customerId": session.customer_id,
            "cardNumber": AUTHORISED, "expiryDate": "1230", "cvv": "123", "cardholderName": "Conformance Holder",
        }).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    jwe = json.loads(urllib.request.urlopen(encrypt).read())["encryptedCustomerInput"]
    encrypted = payments.create_payment(payment_request(None, 1500, "SALE", encrypted=jwe))
    check("encrypted payment captured", encrypted.payment.status == "CAPTURED"
          and encrypted.payment.status_output.status_code == 9, encrypted.payment.status)
    try:
        payments.create_payment(payment_request(None, 1500, "SALE", encrypted=jwe))
        check("session used twice is refused", False, "no error")
    except ApiException as error:
        check("session used twice is refused", error.status_code == 400, error.status_code)

    # Clear card, authorisation then capture and refund, with webhooks.
    auth = payments.create_payment(payment_request(AUTHORISED, 5000, "FINAL_AUTHORIZATION", webhook_url=hook_url))
    pid = auth.payment.id
    check("final authorisation pending capture", auth.payment.status == "PENDING_CAPTURE"
          and auth.payment.status_output.status_code == 5, auth.payment.status)
    fetched = payments.get_payment(pid)
    check("get payment", fetched.id == pid and fetched.payment_output.amount_of_money.amount == 5000)
    capture_request = CapturePaymentRequest()
    capture_request.amount = 5000
    capture_request.is_final = True
    capture = payments.capture_payment(pid, capture_request)
    check("capture", capture.status == "CAPTURED" and capture.status_output.status_code == 9, capture.status)
    refund_request = RefundRequest()
    refund_money = AmountOfMoney()
    refund_money.amount = 2000
    refund_money.currency_code = "EUR"
    refund_request.amount_of_money = refund_money
    refund = payments.refund_payment(pid, refund_request)
    check("refund", refund.status == "REFUNDED" and refund.refund_output.amount_of_money.amount == 2000, refund.status)
    details = payments.get_payment_details(pid)
    check("details list operations", len(details.operations or []) == 3, details.operations)

    other = payments.create_payment(payment_request(AUTHORISED, 800, "FINAL_AUTHORIZATION"))
    cancel = payments.cancel_payment(other.payment.id, CancelPaymentRequest())
    check("cancel", cancel.payment.status == "CANCELLED" and cancel.payment.status_output.status_code == 6)

    # Decline and 3-D Secure redirect.
    try:
        payments.create_payment(payment_request(DECLINED, 1000, "SALE"))
        check("decline raises DeclinedPaymentException", False, "no error")
    except DeclinedPaymentException as error:
        result = error.create_payment_response
        check("decline raises DeclinedPaymentException",
              result is not None and result.payment.status == "REJECTED", error.status_code)
    redirect = payments.create_payment(payment_request(CHALLENGE, 1000, "SALE"))
    check("3-D Secure redirect", redirect.payment.status == "REDIRECTED"
          and redirect.merchant_action.action_type == "REDIRECT"
          and redirect.merchant_action.redirect_data.redirect_url.startswith("http"))

    # Idempotence: the replay carries the first request's timestamp.
    key = "conf-" + uuid.uuid4().hex
    first_context = CallContext(idempotence_key=key)
    first = payments.create_payment(payment_request(AUTHORISED, 1234, "SALE"), first_context)
    replay_context = CallContext(idempotence_key=key)
    replay = payments.create_payment(payment_request(AUTHORISED, 1234, "SALE"), replay_context)
    check("idempotent replay returns the same payment", replay.payment.id == first.payment.id)
    check("replay carries the request timestamp", replay_context.idempotence_request_timestamp is not None
          and first_context.idempotence_request_timestamp is None)

    # Webhooks validate with the SDK helper.
    deadline = time.time() + 10
    while len(Inbox.received) < 3 and time.time() < deadline:
        time.sleep(0.1)
    store = InMemorySecretKeyStore.instance()
    store.store_secret_key(wh_key, wh_secret)
    helper = WebhooksHelper(DefaultMarshaller.instance(), store)
    types = []
    for body, headers in list(Inbox.received):
        try:
            event = helper.unmarshal(body, headers)
            types.append(event.type)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            check("webhook validates", False, repr(error))
    check("webhooks validate with the SDK",
          {"payment.pending_capture", "payment.captured", "refund.refunded"} <= set(types), types)

    hook_server.shutdown()
    print("{} passed, {} failed".format(RESULTS["passed"], RESULTS["failed"]))
    return 0 if RESULTS["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
