#!/usr/bin/env bash
# Runs after the README walkthroughs (WALKTHROUGH_AFTER, which passes the server's base URL and data
# directory; walkthrough.sh exports METRICS_PORT, the server's --metrics-port): makes one payment, scrapes
# GET /metrics on the API port (operator token) and on the metrics port (no token), and runs
# `promtool check metrics` on each scrape. Any complaint, or a scrape without the families a payment moves
# and the scrape-time gauges, fails. Expects promtool on PATH (Debian's prometheus package).
set -euo pipefail
base=$1
data=$2
: "${METRICS_PORT:?is not set: run this through walkthrough.sh}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
field() { python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$data/demo.json" "$1"; }
key=$(field api_key)
token=$(field operator_token)

curl -sS --fail-with-body -o "$work/payment.json" -X POST "$base/v1/payments" \
  -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"amount": 1234, "currency": "USD", "country": "US", "method": "alipay", "reference": "metrics-check"}'
curl -sS --fail-with-body -o "$work/api.txt" -H "Authorization: Bearer $token" "$base/metrics"
curl -sS --fail-with-body -o "$work/listener.txt" "http://127.0.0.1:$METRICS_PORT/metrics"

status=0
for scrape in api listener; do
  for family in http_server_requests_total http_server_request_duration_seconds switchyard_payments_created_total \
    switchyard_janitor_unknown_payments switchyard_webhook_deliveries switchyard_disputes_open; do
    grep -q "^# TYPE $family " "$work/$scrape.txt" \
      || { echo "metrics: the $scrape scrape has no $family family"; status=1; }
  done
  # promtool exits non-zero on a problem; anything it prints is a problem too.
  if ! promtool check metrics <"$work/$scrape.txt" >"$work/$scrape.lint" 2>&1 || [ -s "$work/$scrape.lint" ]; then
    cat "$work/$scrape.lint"
    echo "metrics: promtool check metrics complains about the $scrape scrape"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "metrics: both scrapes pass promtool check metrics"
exit $status
