#!/usr/bin/env bash
# `switchyard-server doctor` (the production executable, as an operator runs it) against a running embedded
# default (its cluster has the production roles): passes
# with the server's own login, the right key, pinned plugins and a public URL; fails, naming the check,
# for the owner's login, a wrong key, a development plugin policy and a loopback public URL.
# Arguments (from walkthrough.sh's WALKTHROUGH_AFTER): the server's base URL, its data directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=$2
binary=${SWITCHYARD_SERVER_BIN:-$(pwd)/.build/debug/switchyard-server}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$(sed -n 4p "$data/postgres/postmaster.pid")
url() { echo "host=127.0.0.1 port=$port user=$1 password=$(cat "$data/postgres-$2.password") dbname=switchyard"; }
"$binary" plugins pin "$data/plugins" --policy deploy/policy.production.json >"$work/pinned.json" 2>/dev/null
status=0

# run NAME EXPECTED-EXIT PATTERN ARGS…: doctor exits as expected and prints PATTERN.
run() {
  local name=$1 expected=$2 pattern=$3
  shift 3
  local code=0
  "$binary" doctor --plugins-dir "$data/plugins" "$@" >"$work/out" 2>&1 || code=$?
  if [ "$code" -ne "$expected" ] || ! grep -q -- "$pattern" "$work/out"; then
    cat "$work/out"
    echo "doctor: $name: exit $code (expected $expected), '$pattern' expected"
    status=1
  else
    echo "doctor: $name: as expected"
  fi
}

good=(--database-url "$(url switchyard_app app)" --kek-file "$data/kek" --policy "$work/pinned.json"
  --public-url https://payments.example.com)
run "a sound deployment" 0 "doctor: every check passed" "${good[@]}"
grep -q "^ok    kek: the key-encryption key opens a stored secret" "$work/out" || { echo "doctor: the key was not checked"; status=1; }
run "the owner's login" 1 "^FAIL  roles: the server connects as switchyard_owner, which owns the tables" \
  "${good[@]}" --database-url "$(url switchyard_owner owner)"
SWITCHYARD_KEK=$(head -c 32 /dev/urandom | base64) run "another key" 1 "^FAIL  kek" "${good[@]}"
run "a development policy" 1 "^FAIL  plugins: the policy is in development mode" \
  "${good[@]}" --policy "$data/policy.json"
run "a loopback public URL" 1 "^FAIL  public-url: the public URL http://127.0.0.1:8080 .* is a loopback address" \
  "${good[@]}" --public-url http://127.0.0.1:8080
# A password in the connection string is never printed, whatever fails.
run "a wrong password" 1 "^FAIL  database" "${good[@]}" \
  --database-url "host=127.0.0.1 port=$port user=switchyard_app password=not-the-password-xyz dbname=switchyard"
if grep -q "not-the-password-xyz\|$(cat "$data/postgres-app.password")" "$work/out"; then
  echo "doctor: a password was printed"
  status=1
fi
exit $status
