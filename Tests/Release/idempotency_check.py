"""Create, replay, reuse, refund and replay with Idempotency-Keys against a running embedded default.

Usage: idempotency_check.py BASE_URL DATA_DIR. Exits non-zero at the first answer that differs from what a
merchant is promised: the same key and body replay the same resource, another body under the key is a 409,
and a replayed refund moves no money twice.
"""
import json
import sys
import time
import urllib.error
import urllib.request
import uuid

base, data = sys.argv[1], sys.argv[2]
demo = json.load(open(f"{data}/demo.json"))
key, sandbox = demo["api_key"], demo["sandbox_url"]


def call(method, url, body=None, idempotency_key=None, token=key):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    payload = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=payload, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"{}")


def expect(condition, what):
    if not condition:
        sys.exit(f"idempotency check: {what}")
    print(f"ok: {what}")


order = "release-" + uuid.uuid4().hex[:8]
body = {"amount": 1500, "currency": "USD", "country": "US", "method": "alipay", "reference": order}
status, _, created = call("POST", f"{base}/v1/payments", body, idempotency_key=order)
expect(status == 201, f"a keyed create answers 201 (got {status})")
status, headers, replayed = call("POST", f"{base}/v1/payments", body, idempotency_key=order)
expect(status == 201 and replayed.get("id") == created["id"], "the same key and body replay the same payment")
expect(headers.get("Idempotent-Replayed") == "true", "the replay says so in Idempotent-Replayed")
status, _, reused = call("POST", f"{base}/v1/payments", dict(body, amount=1501), idempotency_key=order)
expect(status == 409 and reused["error"]["code"] == "idempotency_key_reused", "another body under the key is a 409")

session = created["next_action"]["data"]
status, _, _ = call(
    "POST", f"{sandbox}/citcon/v1/charges/{session['charge_token']}", {"payment": {"method": "alipay"}},
    token=session["client_token"])
expect(status == 200, f"the app confirms the charge in the sandbox (got {status})")
deadline = time.time() + 30
payment = {}
while time.time() < deadline:
    _, _, payment = call("GET", f"{base}/v1/payments/{created['id']}")
    if payment.get("status") == "succeeded":
        break
    time.sleep(0.2)
expect(payment.get("status") == "succeeded", "the payment succeeds after the provider's notification")

refund_key = order + "-refund"
status, _, refund = call("POST", f"{base}/v1/payments/{created['id']}/refunds", {"amount": 400}, refund_key)
expect(status == 201, f"a keyed refund answers 201 (got {status})")
status, headers, again = call("POST", f"{base}/v1/payments/{created['id']}/refunds", {"amount": 400}, refund_key)
expect(status == 201 and again.get("id") == refund.get("id"), "the refund replays under its key")
deadline = time.time() + 30
while time.time() < deadline:
    _, _, payment = call("GET", f"{base}/v1/payments/{created['id']}")
    if payment.get("amount_refunded") == 400:
        break
    time.sleep(0.2)
expect(payment.get("amount_refunded") == 400, f"the money was refunded once (amount_refunded {payment.get('amount_refunded')})")
print("idempotency check: passed")
