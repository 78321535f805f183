#!/usr/bin/env bash
# The checks run against the walkthroughs' server once they have passed (WALKTHROUGH_AFTER: base URL and
# data directory as arguments, METRICS_PORT in the environment): `switchyard doctor` against its database,
# /metrics through promtool, then the policy reloaded through a ConfigMap-style file swap (last: it
# rearranges the server's policy file).
set -uo pipefail
here=$(dirname "$0")
status=0
bash "$here/doctor.sh" "$@" || status=1
bash "$here/check_metrics.sh" "$@" || status=1
bash "$here/check_policy_reload.sh" "$@" || status=1
exit $status
