#!/usr/bin/env bash
# Sets up and runs the whole test suite. Tests that need PostgreSQL start their own throwaway cluster.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
started=$(date +%s)
stages=()
# stage NAME COMMAND...: runs COMMAND, keeps its status, and records its wall time for the summary below.
stage() {
    local name=$1 begun rc=0
    shift
    begun=$(date +%s)
    "$@" || rc=$?
    stages+=("$name: $(( $(date +%s) - begun )) s")
    if [ "$rc" -ne 0 ]; then status=$rc; fi
}
status=0
# Every product, so the plugin .so files the end-to-end tests dlopen exist.
swift build
stages+=("build: $(( $(date +%s) - started )) s")
swift_tests() { swift test --no-parallel 2>&1 | tee .build/test-output.txt; }
stage "swift test" swift_tests
stage "bench smoke" .build/debug/switchyard bench --payments 50 --concurrency 4  # `switchyard bench` keeps working
# The sandboxes driven by the providers' official SDKs.
stage conformance bash Tests/Conformance/run.sh
# The operator console in headless Chromium.
stage console bash Tests/Console/run.sh
# The deployment files and the README walkthroughs.
stage deploy bash Tests/Deploy/run.sh
# The release build users run: walkthroughs, Idempotency-Keys and the bench smoke against it.
stage release bash Tests/Release/run.sh
echo "wall time by stage:"
printf '  %s\n' "${stages[@]}"
echo "total: $(( $(date +%s) - started )) s"
# The suite's own closing lines again, last: the checks above build and test plugin packages of their own,
# whose runners print closing lines too.
echo "the test suite (swift test):"
grep -E "^(✔|✘|􁁛|􀢄)? ?Test run with [0-9]+ tests|Executed [0-9]+ tests?, with" .build/test-output.txt | tail -2 || true
# A red suite names what failed here, at the end, where a truncated log still shows it.
if grep -qE "^✘ Test .* (recorded an issue|failed after)|: error: -\[" .build/test-output.txt; then
    echo "what failed (swift test):"
    grep -E "^✘ Test .* recorded an issue|: error: -\[" .build/test-output.txt | cut -c1-600 | head -20 || true
fi
exit $status
