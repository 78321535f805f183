#!/usr/bin/env bash
# Sets up and runs the whole test suite. Tests that need PostgreSQL start their own throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
started=$(date +%s)
# Every product, so the plugin .so files the end-to-end tests dlopen exist.
swift build
built=$(date +%s)
echo "build: $((built - started)) s"
status=0
swift test --no-parallel 2>&1 | tee .build/test-output.txt || status=$?
.build/debug/switchyard bench --payments 50 --concurrency 4 || status=$?  # smoke: `switchyard bench` keeps working
echo "tests: $(( $(date +%s) - built )) s"
# The sandboxes driven by the providers' official SDKs.
bash Tests/Conformance/run.sh || status=$?
# The operator console in headless Chromium.
bash Tests/Console/run.sh || status=$?
# The deployment files and the README walkthroughs.
bash Tests/Deploy/run.sh || status=$?
# The release build users run: walkthroughs, Idempotency-Keys and the bench smoke against it.
bash Tests/Release/run.sh || status=$?
echo "total: $(( $(date +%s) - started )) s"
# The suite's own closing lines again, last: the checks above build and test plugin packages of their own,
# whose runners print closing lines too.
echo "the test suite (swift test):"
grep -E "^(✔|✘|􁁛|􀢄)? ?Test run with [0-9]+ tests|Executed [0-9]+ tests?, with" .build/test-output.txt | tail -2 || true
exit $status
