"""Drives the operator console in headless Chromium against a fresh embedded default.

Usage: console_test.py BASE_URL DEMO_JSON SCREENSHOT

Signs in with the operator token (and sees the operator and role the console read from GET /admin/v1/me,
or the bootstrap admin where the API has no such route), creates a tenant and an API key, edits the tenant's
policy (a loosening attempt_limit refused next to its field, a tightening one saved and cleared again),
creates a Citcon provider account, edits the
routing, runs a simulation, finds a payment made with the new key, edits a rule's strategy and max_rate_loss
(and sees an invalid one refused next to the rule), reads the authorisation rates with their bounds, diffs a
routing version against the current one and restores it, replays the editor's rules against the live routing,
watches a guarded rollout's two curves and stops it, sees the account's circuit breaker open after
the sandbox is told to answer "unavailable", and reloads plugins and the policy after confirming. Every
check reads what the page shows.
"""

import json
import os
import tempfile
import shutil
import sys
import time
import urllib.error
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, DEMO_FILE, SHOT = sys.argv[1], sys.argv[2], sys.argv[3]
DEMO = json.load(open(DEMO_FILE))
WAIT = 30


def http(method, url, body=None, token=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok -", message)


def step(name):
    print("==", name)


# The page and its files: right types, a strict policy, no credential needed to load them.
for path, kind in [("/console", "text/html"), ("/console/app.js", "text/javascript"), ("/console/app.css", "text/css")]:
    status, headers, _ = http("GET", BASE + path)
    check(status == 200 and headers["Content-Type"].startswith(kind), f"{path} is served as {kind}")
    csp = headers["Content-Security-Policy"] or ""
    check("default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp,
          f"{path} carries a strict Content-Security-Policy")

options = webdriver.ChromeOptions()
options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1440,1000", "--no-first-run", "--disable-extensions"]:
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
driver.set_page_load_timeout(WAIT)
wait = WebDriverWait(driver, WAIT)


def find(css):
    return wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def fill(css, text, root=None):
    element = (root or driver).find_element(By.CSS_SELECTOR, css) if root else find(css)
    element.clear()
    element.send_keys(text)
    return element


def text_in(css, text):
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    return driver.find_element(By.CSS_SELECTOR, css).text


def nav(view):
    find(f'#nav button[data-view="{view}"]').click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f'#nav button.active[data-view="{view}"]')))


try:
    step("sign in")
    driver.get(BASE + "/console")
    fill("#token", "not-the-token")
    find("#signin-button").click()
    check("not accepted" in text_in("#signin-error", "not accepted"), "a wrong token is refused on the page")
    fill("#token", DEMO["operator_token"])
    find("#signin-button").click()
    find("#app")
    text_in("#view", "Tenants")
    check(DEMO["operator_token"] not in driver.current_url, "the token is not in the URL")
    check(driver.execute_script("return sessionStorage.getItem('switchyard.operatorToken')") == DEMO["operator_token"],
          "the token is kept in sessionStorage")
    check(driver.execute_script("return localStorage.length") == 0, "nothing is kept in localStorage")
    who = text_in("#whoami", "admin")
    check(who in ("bootstrap · admin",), f"the console names the signed-in operator and role ({who})")

    step("create a tenant and an API key")
    fill("#tenant-name", "Console Test Merchant")
    find("#tenant-form button[type=submit]").click()
    text_in("tr.selected", "Console Test Merchant")
    check(True, "the new tenant is listed and selected")
    fill("#key-name", "checkout server")
    find("#key-form button[type=submit]").click()
    secret = find("#new-secret-value").text.strip()
    check(len(secret) > 20, "the new key's secret is shown once")
    text_in("#keys-card table", "checkout server")
    text_in("#keys-card table", "active")

    step("edit the tenant's policy")
    tenant_id = find("tr.selected").get_attribute("data-tenant")
    fill("#policy-attempt_limit", "100000")
    find("#policy-save").click()
    field_error = text_in('#policy-form .field-error[data-field="attempt_limit"]', "attempt_limit")
    check("policy_loosened" in field_error and "attempt_limit must be between" in field_error,
          f"a loosening value is refused next to its field ({field_error})")
    status, _, body = http("GET", BASE + f"/admin/v1/tenants/{tenant_id}/policy", token=DEMO["operator_token"])
    check(status == 200 and json.loads(body)["tenant"].get("attempt_limit") is None, "the refused policy is not saved")
    fill("#policy-attempt_limit", "2")
    find("#policy-save").click()
    text_in("#toast", "Policy saved")
    status, _, body = http("GET", BASE + f"/admin/v1/tenants/{tenant_id}/policy", token=DEMO["operator_token"])
    check(json.loads(body)["tenant"].get("attempt_limit") == 2, "the tightened policy is saved")
    find("#policy-attempt_limit").clear()
    find("#policy-save").click()
    wait.until(lambda d: json.loads(http("GET", BASE + f"/admin/v1/tenants/{tenant_id}/policy",
                                         token=DEMO["operator_token"])[2])["tenant"].get("attempt_limit") is None)
    check(True, "clearing the field gives the platform's limit back")

    step("move the tenant's API-version pin")
    nav("accounts")
    nav("tenants")
    row = find(f'tr[data-tenant="{tenant_id}"]')
    pinned = Select(row.find_element(By.CSS_SELECTOR, ".pin-version")).first_selected_option.text
    _, _, body = http("GET", BASE + f"/admin/v1/tenants/{tenant_id}", token=DEMO["operator_token"])
    current = json.loads(body)["api_version"]
    check(pinned == current, f"the tenant's pin is shown ({pinned})")
    older = [o.get_attribute("value") for o in row.find_elements(By.CSS_SELECTOR, ".pin-version option")][0]
    check(older != current, f"an older version can be chosen ({older})")
    Select(row.find_element(By.CSS_SELECTOR, ".pin-version")).select_by_value(older)
    row.find_element(By.CSS_SELECTOR, ".pin-save").click()
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()
    text_in("#toast", "pinned to " + older)
    _, _, body = http("GET", BASE + f"/admin/v1/tenants/{tenant_id}", token=DEMO["operator_token"])
    check(json.loads(body)["api_version"] == older, "the pin is moved")
    status, _, _ = http("PATCH", BASE + f"/admin/v1/tenants/{tenant_id}", {"api_version": current},
                        token=DEMO["operator_token"])
    check(status == 200, "and moved back through the API")

    step("create a provider account")
    nav("accounts")
    Select(find("#account-plugin")).select_by_value("citcon")
    fill("#account-name", "Console Citcon")
    fill("#account-base-url", DEMO["sandbox_url"] + "/citcon")
    rows = driver.find_elements(By.CSS_SELECTOR, "#account-credentials .cred")
    for row, (name, value) in zip(rows, [("private_key", DEMO["citcon_private_key"]),
                                         ("ipn_secret", DEMO["citcon_ipn_secret"])]):
        fill(".cred-name", name, row)
        fill(".cred-value", value, row)
    find("#account-create").click()
    text_in("#view table", "Console Citcon")
    account_row = find("tr[data-account]")
    account_id = account_row.get_attribute("data-account")
    check("private_key" in account_row.text and DEMO["citcon_private_key"] not in driver.page_source,
          "the account is listed with its secret credential masked")
    account_row.find_element(By.CSS_SELECTOR, ".account-edit").click()
    fill(".account-editor .edit-name", "Console Citcon US")
    find(".account-editor .edit-save").click()
    text_in(f'tr[data-account="{account_id}"]', "Console Citcon US")
    check(True, "the account is renamed in place")

    step("edit routing")
    nav("routing")
    find("#rule-add").click()
    rule = find(".rule")
    fill(".rule-name", "US alipay", rule)
    fill(".rule-countries", "us", rule)
    fill(".rule-currencies", "usd", rule)
    fill(".rule-methods", "alipay", rule)
    Select(rule.find_element(By.CSS_SELECTOR, ".rule-account")).select_by_value(account_id)
    find("#routing-save").click()
    check("version 1" in text_in("#routing-status", "Saved: version 1"), "the routing is saved as version 1")

    step("simulate")
    fill("#sim-amount", "1234")
    fill("#sim-currency", "USD")
    fill("#sim-country", "US")
    fill("#sim-method", "alipay")
    find("#sim-run").click()
    check("Console Citcon" in text_in("#sim-chosen", "Console Citcon"), "the simulation chooses the new account")
    check(text_in("#sim-rule", "US alipay") == "US alipay", "the simulation names the matched rule")
    driver.save_screenshot(SHOT)

    step("find a payment")
    payment = {"amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "console-order-1"}
    status, _, body = http("POST", BASE + "/v1/payments", payment, token=secret,
                           headers={"Idempotency-Key": "console-order-1"})
    check(status == 201, f"a payment is created with the new key ({status} {body[:200]!r})")
    payment_id = json.loads(body)["id"]
    nav("payments")
    Select(find("#search-kind")).select_by_value("reference")
    fill("#search-value", "console-order-1")
    find("#search-form button[type=submit]").click()
    card = find(f'.payment[data-payment="{payment_id}"]')
    check("Console Test Merchant" in card.text, "the payment is found by reference with its tenant")
    check(card.find_element(By.CSS_SELECTOR, ".routing-rule").text == "US alipay",
          "the payment shows its routing decision")
    check("citcon" in card.find_element(By.CSS_SELECTOR, "tr.attempt").text, "the payment shows its attempt")
    driver.save_screenshot(SHOT.replace(".png", "-payment.png"))
    Select(find("#search-kind")).select_by_value("id")
    fill("#search-value", payment_id)
    find("#search-form button[type=submit]").click()
    text_in("#search-results", payment_id)

    step("strategies and max_rate_loss")
    tenant_id = Select(find("#tenant-select")).first_selected_option.get_attribute("value")
    routing_url = BASE + "/admin/v1/tenants/" + tenant_id + "/routing"

    def api_get(url):
        status, _, body = http("GET", url, token=DEMO["operator_token"])
        check(status == 200, f"GET {url[len(BASE):]} answers 200 ({status})")
        return json.loads(body)

    nav("routing")
    rule = find(".rule")
    check(Select(rule.find_element(By.CSS_SELECTOR, ".rule-strategy")).first_selected_option.text == "ordered",
          "the rule shows its strategy")
    Select(rule.find_element(By.CSS_SELECTOR, ".rule-strategy")).select_by_value("adaptive")
    fill(".rule-max-rate-loss", "2.5", rule)
    find("#routing-save").click()
    text_in("#routing-status", "Saved: version 2")
    saved = api_get(routing_url)
    check(saved["version"] == 2 and saved["rules"][0]["strategy"] == "adaptive"
          and saved["rules"][0]["max_rate_loss"] == 2.5, "the strategy and max_rate_loss are saved")
    rule = find(".rule")
    check(rule.find_element(By.CSS_SELECTOR, ".rule-max-rate-loss").get_attribute("value") == "2.5",
          "the editor shows the saved max_rate_loss")
    fill(".rule-max-rate-loss", "150", rule)
    find("#routing-save").click()
    rule_error = text_in(".rule .rule-error", "invalid_max_rate_loss")
    check("max_rate_loss must be between" in rule_error, f"the API's error is shown next to the rule ({rule_error})")
    check(api_get(routing_url)["version"] == 2, "the refused routing is not saved")

    def paid(reference):
        """Creates a payment with the new key and confirms it at the sandbox; returns it once it succeeded."""
        status, _, body = http("POST", BASE + "/v1/payments", dict(payment, reference=reference),
                               token=secret, headers={"Idempotency-Key": reference})
        check(status == 201, f"payment {reference} is created ({status})")
        created = json.loads(body)
        action = created["next_action"]["data"]
        # Play the app's part: confirming the pending charge makes the sandbox send its IPN.
        status, _, _ = http("POST", DEMO["sandbox_url"] + "/citcon/v1/charges/" + action["charge_token"],
                            {"payment": {"method": "alipay"}}, token=action["client_token"])
        check(status == 200, f"the sandbox confirms the charge of {reference}")
        for _ in range(100):
            _, _, body = http("GET", BASE + "/v1/payments/" + created["id"], token=secret)
            if json.loads(body)["status"] == "succeeded":
                break
            time.sleep(0.2)
        check(json.loads(body)["status"] == "succeeded", f"payment {reference} succeeds")
        return json.loads(body)

    step("authorisation statistics")
    for n in range(3):
        paid(f"console-stats-{n}")
    nav("routing")
    find("#stats-refresh").click()
    # The card is drawn again when the refresh answers: read the row until it shows the three answers,
    # finding it again whenever the drawing replaced it.
    deadline = time.time() + 15
    while True:
        try:
            row = find(f'#stats-card tr.stat-row[data-account="{account_id}"]')
            rate, bounds, samples = (row.find_element(By.CSS_SELECTOR, c).text
                                     for c in (".stat-rate", ".stat-bounds", ".stat-samples"))
            drawn = len(row.find_elements(By.CSS_SELECTOR, "svg.interval rect.bounds"))
            if samples.startswith("3 (3 ✓") or time.time() > deadline:
                break
        except StaleElementReferenceException:
            if time.time() > deadline:
                raise
        time.sleep(0.1)
    check(rate.endswith("%") and bounds.count("%") == 2 and "–" in bounds,
          f"the statistics show the account's rate {rate} with its bounds {bounds}")
    check(samples.startswith("3 (3 ✓"), f"the statistics show the sample count ({samples})")
    check(drawn == 1, "the interval is drawn")
    stats = api_get(routing_url + "/stats")["data"]
    entry = next(e for e in stats if e["account_id"] == account_id and e["country"] is None)
    check(rate == f"{entry['rate'] * 100:.1f}%", "the shown rate is the API's")

    step("versions, diff and rollback")
    find('.version-row[data-version="2"]')
    find('.version-row[data-version="1"] .version-diff').click()
    changed = find('#version-diff tr.diff-row[data-field="strategy"]')
    check(changed.find_element(By.CSS_SELECTOR, ".diff-from").text == "ordered"
          and changed.find_element(By.CSS_SELECTOR, ".diff-to").text == "adaptive",
          "the diff of version 1 against the current one shows the strategy change")
    check(find('#version-diff tr.diff-row[data-field="max_rate_loss"] .diff-to').text == "2.5",
          "the diff shows the max_rate_loss change")
    driver.save_screenshot(SHOT.replace(".png", "-routing.png"))
    find('.version-row[data-version="1"] .version-restore').click()
    text_in("#routing-status", "Version 1 restored as version 3")
    restored = api_get(routing_url)
    old = next(v for v in api_get(routing_url + "/versions")["data"] if v["version"] == 1)
    check(restored["version"] == 3 and restored["rules"] == old["rules"],
          "the rollback saves version 1's rules as the current version 3")
    check(Select(find(".rule .rule-strategy")).first_selected_option.text == "ordered",
          "the editor shows the restored rule")

    step("routing replay")
    Select(find("#replay-window")).select_by_value("last")
    fill("#replay-last", "500")
    find("#replay-run").click()
    find("#replay-result")
    for policy in ("draft", "live"):
        shown = find(f'#replay-comparison tr.replay-overall td[data-policy="{policy}"]').text
        check(shown.endswith("evidence") or "%" in shown,
              f"the replay shows the {policy} authorisation rate or not enough evidence ({shown})")
    replayed = int(find("#replay-result p.muted").text.split()[0])
    check(replayed >= 3, f"the replay covers the logged payments ({replayed})")
    check("Payments that would change account" in find("#replay-result").text, "the replay lists the changed payments")
    Select(find("#replay-window")).select_by_value("range")
    count_field = driver.find_element(By.CSS_SELECTOR, "#replay-last")
    check(find("#replay-from").is_displayed() and not count_field.is_displayed(),
          "a time range replaces the payment count")

    step("guarded rollout")
    current = api_get(routing_url)
    status, _, body = http("PUT", routing_url, {"rules": current["rules"], "version": current["version"],
                                                "rollout": {"share": "50%", "min_samples": 1000,
                                                            "max_duration_seconds": 86400}},
                           token=DEMO["operator_token"])
    check(status == 200, f"a rollout is started through the API ({status} {body[:200]!r})")
    rollout_id = json.loads(body)["rollout"]["id"]
    for n in range(40):
        paid(f"console-rollout-{n}")
        figures = api_get(routing_url)["rollout"]
        if n >= 3 and figures["control"]["samples"] > 0 and figures["draft"]["samples"] > 0:
            break
    check(figures["control"]["samples"] > 0 and figures["draft"]["samples"] > 0, "both arms have answers")
    nav("tenants")
    nav("routing")

    def curve_points(css):
        """The points of a curve, read again until the card drew them (the card is drawn when its data arrives)."""
        deadline = time.time() + 15
        while True:
            try:
                # Presence, not visibility: a flat curve (a constant rate) has no height, which Selenium reads
                # as not displayed.
                curve = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))
                points = curve.get_attribute("points").split()
                if points or time.time() > deadline:
                    return points
            except StaleElementReferenceException:
                if time.time() > deadline:
                    raise
            time.sleep(0.1)

    check(find("#rollout-running").get_attribute("data-rollout") == rollout_id, "the console shows the running rollout")
    check("running" in text_in("#rollout-status", "running"), "its status is running")
    control = curve_points("#rollout-chart polyline.curve-control")
    draft = curve_points("#rollout-chart polyline.curve-draft")
    check(len(control) >= 1 and len(draft) >= 1, f"two curves are drawn ({len(control)} and {len(draft)} points)")
    check(all("," in point for point in control + draft), "each curve point has both coordinates")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#rollout-interval-chart line.guardrail")) == 1,
          "the guardrail is drawn against the interval")
    shown_samples = find('#rollout-running tr.rollout-arm[data-arm="draft"] .arm-samples').text
    check(int(shown_samples) == api_get(routing_url)["rollout"]["draft"]["samples"],
          f"the draft's answers are the API's ({shown_samples})")
    driver.execute_script("arguments[0].scrollIntoView()", find("#rollout-card"))
    driver.save_screenshot(SHOT.replace(".png", "-rollout.png"))
    find("#rollout-stop").click()
    check("stopped" in text_in("#rollout-last-status", "stopped"), "Stop ends the rollout: its status is stopped")
    check(find("#rollout-last").get_attribute("data-rollout") == rollout_id, "the ended rollout is the one started")
    find("#rollout-none")
    check(api_get(routing_url).get("rollout") is None, "no rollout runs any more")

    step("disputes by deadline, answered by a support operator")
    operators = {}
    for name, role in [("Vera Viewer", "viewer"), ("Sam Support", "support")]:
        status, _, body = http("POST", BASE + "/admin/v1/operators", {"name": name, "role": role},
                               token=DEMO["operator_token"])
        check(status == 201, f"operator {name} ({role}) is added ({status})")
        operators[role] = json.loads(body)
    disputed = paid("console-dispute-1")
    refundable = paid("console-refund-1")
    charge = disputed["attempts"][-1]["provider_payment_id"]
    status, _, _ = http("POST", DEMO["sandbox_url"] + "/_sandbox/citcon/chargebacks/" + charge,
                        {"status": "Notification of Claim"})
    check(status == 200, "the sandbox charges the payment back")
    for _ in range(100):
        _, _, body = http("GET", BASE + "/v1/disputes?payment=" + disputed["id"], token=secret)
        found = json.loads(body)["data"]
        if found:
            break
        time.sleep(0.1)
    check(len(found) == 1, "the chargeback is a dispute of the payment")
    dispute_id = found[0]["id"]

    def sign_in_as(token, expected):
        find("#sign-out").click()
        fill("#token", token)
        find("#signin-button").click()
        shown = text_in("#whoami", expected)
        Select(find("#tenant-select")).select_by_value(tenant_id)
        return shown

    check(sign_in_as(operators["viewer"]["token"], "viewer") == "Vera Viewer · viewer",
          "the viewer is named with the role")
    nav("disputes")
    row = find(f'tr[data-dispute="{dispute_id}"]')
    check("needs_response" in row.text, "the viewer sees the open dispute")
    check(not row.find_elements(By.CSS_SELECTOR, '[data-action="accept"]'), "a viewer is not offered Accept")
    status, _, body = http("POST", BASE + f"/admin/v1/tenants/{tenant_id}/disputes/{dispute_id}/accept", {},
                           token=operators["viewer"]["token"])
    check(status == 403 and json.loads(body)["error"]["code"] == "missing_permission",
          "the API refuses the viewer's accept anyway")

    def search(reference):
        nav("payments")
        Select(find("#search-kind")).select_by_value("reference")
        fill("#search-value", reference)
        find("#search-form button[type=submit]").click()
        return find(f'.payment[data-payment="{refundable["id"]}"]')

    card = search("console-refund-1")
    check(not card.find_elements(By.CSS_SELECTOR, ".payment-actions button"), "a viewer is offered no payment action")

    check(sign_in_as(operators["support"]["token"], "support") == "Sam Support · support",
          "the support operator is named with the role")
    nav("tenants")
    text_in("#view", "Tenants")
    check(not driver.find_elements(By.CSS_SELECTOR, "#tenant-form, #key-form, .pin-save"),
          "a support operator is offered no tenant, key or version change")
    nav("plugins")
    text_in("#view", "citcon")
    check(not driver.find_elements(By.CSS_SELECTOR, "#plugin-reload, #policy-reload"),
          "a support operator is offered no plugin or policy reload")
    nav("disputes")
    row = find(f'tr[data-dispute="{dispute_id}"]')
    check(bool(row.find_elements(By.CSS_SELECTOR, ".status")) and "needs_response" in row.text,
          "the dispute is listed with its status")
    receipt = os.path.join(tempfile.mkdtemp(), "receipt.pdf")
    with open(receipt, "wb") as handle:
        handle.write(b"%PDF-1.4 console receipt")
    row.find_element(By.CSS_SELECTOR, '[data-field="evidence-file"]').send_keys(receipt)
    row.find_element(By.CSS_SELECTOR, '[data-action="evidence"]').click()
    text_in("#toast", "Evidence staged for " + dispute_id)
    check(True, "a support operator attaches a receipt as evidence")
    wait.until(EC.staleness_of(row))
    row = find(f'tr[data-dispute="{dispute_id}"]')
    row.find_element(By.CSS_SELECTOR, '[data-action="accept"]').click()
    wait.until(EC.alert_is_present())
    prompt = driver.switch_to.alert.text
    check(dispute_id in prompt and "USD" in prompt, f"the confirmation names the dispute and its amount ({prompt})")
    driver.switch_to.alert.accept()
    text_in("#toast", "Dispute " + dispute_id)
    _, _, body = http("GET", BASE + "/v1/disputes/" + dispute_id, token=secret)
    check(json.loads(body)["response"]["channel"] == "respond_at_provider",
          "Citcon has no API: the acceptance is recorded to give at Citcon")
    audit = api_get(BASE + "/admin/v1/audit?operator=" + operators["support"]["id"])["data"]
    accepted = [e for e in audit if e["action"] == "dispute.accept"]
    check(len(accepted) == 1 and accepted[0]["actor"] == "operator:Sam Support"
          and accepted[0]["operatorRole"] == "support", "the audit names the support operator who accepted")
    driver.save_screenshot(SHOT.replace(".png", "-disputes.png"))

    card = search("console-refund-1")
    amount = card.find_element(By.CSS_SELECTOR, '[data-field="refund-amount"]')
    amount.clear()
    amount.send_keys("234")
    card.find_element(By.CSS_SELECTOR, '[data-action="refund"]').click()
    wait.until(EC.alert_is_present())
    prompt = driver.switch_to.alert.text
    check("2.34 USD" in prompt and refundable["id"] in prompt, f"the refund's confirmation shows amount and currency ({prompt})")
    driver.switch_to.alert.accept()
    text_in("#toast", "Refund re_")
    for _ in range(50):
        _, _, body = http("GET", BASE + "/v1/payments/" + refundable["id"], token=secret)
        if json.loads(body)["amount_refunded"] == 234:
            break
        time.sleep(0.1)
    check(json.loads(body)["amount_refunded"] == 234, "the partial refund is made once")
    audit = api_get(BASE + "/admin/v1/audit?operator=" + operators["support"]["id"])["data"]
    check(any(e["action"] == "payment.refund" and e["target"] == refundable["id"] for e in audit),
          "the audit names the support operator who refunded")
    check(sign_in_as(DEMO["operator_token"], "admin") == "bootstrap · admin", "back as the bootstrap admin")

    step("a tenant's webhook endpoints")
    nav("webhooks")
    fill("#endpoint-url", "https://merchant.example/console-hooks")
    fill("#endpoint-types", "payment.*, dispute.*")
    find("#endpoint-form button[type=submit]").click()
    shown = text_in("#endpoint-secret-value", "whsec_")
    check(shown.startswith("whsec_"), "the new endpoint's signing secret is shown once")
    row = find("tr[data-endpoint]")
    check("payment.*" in row.text and "enabled" in row.text, "the endpoint is listed, enabled")
    endpoint_id = row.get_attribute("data-endpoint")
    row.find_element(By.CSS_SELECTOR, '[data-endpoint-action="rotate-secret"]').click()
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()
    rotated = text_in("#endpoint-secret-value", "whsec_")
    check(rotated != shown, "a rotation shows a new secret")
    find(f'tr[data-endpoint="{endpoint_id}"] [data-endpoint-action="disable"]').click()
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()
    text_in(f'tr[data-endpoint="{endpoint_id}"] .endpoint-state', "disabled")
    check(True, "the endpoint is disabled")

    step("open a breaker with injected faults")
    status, _, _ = http("POST", DEMO["sandbox_url"] + "/_sandbox/citcon/faults", {"kind": "unavailable"})
    check(status == 200, "the sandbox takes the fault rule")
    refused = False
    for n in range(12):
        status, _, body = http("POST", BASE + "/v1/payments", dict(payment, reference=f"console-fault-{n}"),
                               token=secret, headers={"Idempotency-Key": f"console-fault-{n}"})
        if status == 503:
            refused = True
            break
    check(refused, "payments are refused once the account's breaker is open")
    nav("health")
    breaker = text_in(f'tr[data-account="{account_id}"] .breaker', "open")
    check(breaker.strip() == "open", "the console shows the account's breaker open")
    driver.save_screenshot(SHOT.replace(".png", "-health.png"))
    http("DELETE", DEMO["sandbox_url"] + "/_sandbox/citcon/faults")

    step("reload plugins and the policy")
    nav("plugins")
    find("#plugin-reload").click()
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()
    check("Plugins reloaded" in text_in("#toast", "Plugins reloaded"), "plugins are reloaded after a confirmation")
    driver.execute_script("document.getElementById('toast').textContent = ''")
    find("#policy-reload").click()
    wait.until(EC.alert_is_present())
    driver.switch_to.alert.accept()
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#toast").text.strip() != "")
    reloaded = find("#toast").text
    check("Policy reloaded" in reloaded or ":" in reloaded, f"the policy reload's outcome is shown ({reloaded})")

    step("the other views load")
    for view, text in [("review", "Payments still unknown"), ("webhooks", "Webhook deliveries"),
                       ("plugins", "citcon"), ("audit", "routing")]:
        nav(view)
        text_in("#view", text)
        check(True, f"the {view} view shows its content")

    problems = [entry["message"] for entry in driver.get_log("browser")
                if entry["level"] == "SEVERE" and "503" not in entry["message"]]
    check(not [p for p in problems if "Content Security Policy" in p], "no Content-Security-Policy violation")
    print("console: all checks passed")
except Exception:
    try:
        driver.save_screenshot(SHOT.replace(".png", "-failure.png"))
        print("console: failure screenshot at", SHOT.replace(".png", "-failure.png"), file=sys.stderr)
    except Exception:
        pass
    raise
finally:
    driver.quit()
