#!/usr/bin/env bash
# Drives the provider sandboxes with the providers' official server SDKs (installed from PyPI into a
# private virtual environment). Expects `swift build` to have built .build/debug/switchyard.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/conformance-venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -y -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3 python3-venv
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check onlinepayments-sdk-python3==10.3.0 \
  global-open-sdk-python==1.7.1

work=$(mktemp -d)
sandbox_pid=""
cleanup() {
  if [ -n "$sandbox_pid" ]; then
    kill "$sandbox_pid" 2>/dev/null || true
    wait "$sandbox_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The Antom merchant's key pair: the sandbox knows the public half, the SDK signs with the private one.
openssl genrsa -out "$work/antom-merchant.pem" 2048 2>/dev/null
openssl rsa -in "$work/antom-merchant.pem" -pubout -out "$work/antom-merchant.pub" 2>/dev/null
antom_client=SANDBOX_5X00000000000000

.build/debug/switchyard sandbox --port 0 --port-file "$work/port" \
  --worldline-merchant MERCH1:KEYID123:secret-key-abc:WHKEY1:webhook-secret \
  --antom-merchant "$antom_client:$work/antom-merchant.pub" \
  >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/port" ] && break
  sleep 0.2
done
if [ ! -s "$work/port" ]; then
  echo "conformance: the sandbox did not start" >&2
  cat "$work/sandbox.log" >&2
  exit 1
fi
base="http://127.0.0.1:$(cat "$work/port")"

status=0
echo "conformance: Worldline Direct sandbox with onlinepayments-sdk-python3"
timeout 300 "$venv/bin/python" Tests/Conformance/worldline_direct_sdk.py "$base" || status=1
echo "conformance: Antom sandbox with global-open-sdk-python"
timeout 300 "$venv/bin/python" Tests/Conformance/antom_sdk.py "$base" "$antom_client" "$work/antom-merchant.pem" || status=1
exit $status
