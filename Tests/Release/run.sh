#!/usr/bin/env bash
# Builds the release configuration users run and checks it: the README walkthroughs, a create, replay,
# reuse and refund under Idempotency-Keys, and the bench smoke, all against .build/release/switchyard. A
# miscompile that only an optimised build shows fails here.
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)
swift build -c release
echo "release build: $(( $(date +%s) - started )) s"
binary=$(pwd)/.build/release/switchyard
status=0
echo "release: README walkthroughs, then Idempotency-Keys"
SWITCHYARD_BIN="$binary" WALKTHROUGH_AFTER="python3 $(pwd)/Tests/Release/idempotency_check.py" \
  bash Tests/Deploy/walkthrough.sh || status=1
echo "release: bench smoke"
"$binary" bench --payments 50 --concurrency 4 || status=1
[ "$status" -eq 0 ] && echo "release: all checks passed"
exit $status
