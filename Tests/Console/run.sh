#!/usr/bin/env bash
# Drives the operator console at /console in a real headless Chromium (Debian chromium + chromium-driver,
# PyPI selenium in a private virtual environment) against a fresh embedded default. Expects `swift build`
# to have built .build/debug/switchyard. Saves a screenshot to .build/console.png; with
# --update-screenshot, also to docs/console.png (the one the README shows).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/console-venv
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
python3 -m venv --help >/dev/null 2>&1 || need+=(python3-venv)
if [ ! -x "$venv/bin/python" ] && ! python3 -c 'import ensurepip' >/dev/null 2>&1; then need+=(python3-venv); fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -y -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3 python3-venv "${need[@]}"
fi
if [ ! -x "$venv/bin/python" ]; then
  rm -rf "$venv"
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check selenium==4.27.1

work=$(mktemp -d)
# The embedded PostgreSQL runs as the postgres user when this runs as root: it must reach the data directory.
chmod 755 "$work"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  # A server that died leaves its embedded PostgreSQL behind: stop it too.
  if [ -s "$work/data/postgres/postmaster.pid" ]; then
    pg_pid=$(head -1 "$work/data/postgres/postmaster.pid")
    kill -TERM "$pg_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pg_pid" 2>/dev/null || break; sleep 0.2; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
.build/debug/switchyard serve --port "$port" --data-dir "$work/data" >"$work/server.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1 300); do
  if [ -s "$work/data/demo.json" ] && curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "console: the server did not start" >&2
  tail -50 "$work/server.log" >&2
  exit 1
fi

status=0
echo "console: headless Chromium against http://127.0.0.1:$port/console"
timeout 300 "$venv/bin/python" Tests/Console/console_test.py "http://127.0.0.1:$port" "$work/data/demo.json" \
  .build/console.png || status=$?
if [ $status -eq 0 ]; then
  if [ "${1:-}" = "--update-screenshot" ]; then cp .build/console.png docs/console.png; fi
else
  echo "console: server log (tail)" >&2
  tail -30 "$work/server.log" >&2
fi
exit $status
