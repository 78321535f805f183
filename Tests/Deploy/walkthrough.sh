#!/usr/bin/env bash
# Runs the walkthrough blocks of the README, then of docs/walkthroughs.md (each a ```sh block right after a
# `<!-- walkthrough -->` line; WALKTHROUGH_DOCS names other documents), in order, as one script against a fresh embedded default on a free port,
# stopping at the first command that fails. Runs SWITCHYARD_BIN (default: .build/debug/switchyard, built by `swift build`). With
# WALKTHROUGH_AFTER, that command then runs with the server's base URL and data directory as arguments (and
# METRICS_PORT, the server's --metrics-port, in its environment).
set -euo pipefail
cd "$(dirname "$0")/../.."
repository=$(pwd)
work=$(mktemp -d)
# The embedded cluster runs as the postgres user when started by root: it must reach the data directory.
chmod 755 "$work"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# WALKTHROUGH_DOCS: the documents whose blocks run (default: the README's and docs/walkthroughs.md's).
read -r -a docs <<<"${WALKTHROUGH_DOCS:-README.md docs/walkthroughs.md}"
python3 - "${docs[@]}" >"$work/walkthrough.sh" <<'PY'
import re, sys
blocks = []
for path in sys.argv[1:]:
    found = re.findall(r"^<!-- walkthrough -->\n```sh\n(.*?)^```$", open(path).read(), re.S | re.M)
    if not found:
        sys.exit(f"walkthrough: no walkthrough block in {path}")
    blocks += found
print("set -eo pipefail")
for number, block in enumerate(blocks, 1):
    print(f"echo '--- walkthrough block {number}'")
    print(block)
print(f"echo 'walkthrough: {len(blocks)} blocks passed'")
PY

# Two free ports, both held while they are chosen so they differ.
read -r PORT METRICS_PORT < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')
DATA="$work/data"
# The blocks run in a temporary directory: they find the checkout and the executable through these.
SWITCHYARD_SOURCE=$repository
SWITCHYARD_BIN=${SWITCHYARD_BIN:-$repository/.build/debug/switchyard}
export PORT DATA METRICS_PORT SWITCHYARD_SOURCE SWITCHYARD_BIN
"$SWITCHYARD_BIN" serve --port "$PORT" --metrics-port "$METRICS_PORT" \
  --data-dir "$DATA" >"$work/serve.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1 600); do
  if [ -s "$DATA/demo.json" ] && curl -sf "http://127.0.0.1:$PORT/ready" >/dev/null 2>&1; then
    ready=yes
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "walkthrough: the embedded default did not become ready" >&2
  tail -50 "$work/serve.log" >&2
  exit 1
fi
status=0
(cd "$work" && bash "$work/walkthrough.sh") || status=$?
if [ "$status" -eq 0 ] && [ -n "${WALKTHROUGH_AFTER:-}" ]; then
  $WALKTHROUGH_AFTER "http://127.0.0.1:$PORT" "$DATA" || status=$?
fi
if [ "$status" -ne 0 ]; then
  echo "walkthrough: a walkthrough command failed (status $status); the server's log ends with:" >&2
  tail -30 "$work/serve.log" >&2
fi
exit $status
