#!/usr/bin/env bash
# Runs after the README walkthroughs (WALKTHROUGH_AFTER passes the server's base URL and data directory):
# lays the server's policy file out as the kubelet lays out a ConfigMap mounted as a directory
# (policy.json -> ..data/policy.json, ..data -> ..<timestamp>), changes the policy by swapping ..data to a
# new directory and deleting the old one, as the kubelet does, and checks that POST /admin/v1/policy/reload
# applies the new policy: what deploy/kubernetes/switchyard.yaml relies on.
set -euo pipefail
base=$1
data=$2
token=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["operator_token"])' "$data/demo.json")
cd "$data"
[ -f policy.json ] && [ ! -L policy.json ] || { echo "policy reload: $data/policy.json is not a plain file"; exit 1; }
mkdir ..v1
cp policy.json ..v1/policy.json
ln -s ..v1 ..data
ln -s ..data/policy.json policy.json.new && mv -T policy.json.new policy.json

reload() {
  curl -sS --fail-with-body -X POST -H "Authorization: Bearer $token" "$base/admin/v1/policy/reload" \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["failover"]["attempt_limit"])'
}
before=$(reload)
mkdir ..v2
python3 - ..v1/policy.json ..v2/policy.json "$((before + 1))" <<'PY'
import json, sys
policy = json.load(open(sys.argv[1]))
policy.setdefault("failover", {})["attempt_limit"] = int(sys.argv[3])
json.dump(policy, open(sys.argv[2], "w"), indent=2)
PY
ln -s ..v2 ..data.new && mv -T ..data.new ..data
rm -rf ..v1
after=$(reload)
if [ "$after" != "$((before + 1))" ]; then
  echo "policy reload: after the ConfigMap-style swap the server applied attempt_limit $after, not $((before + 1))"
  exit 1
fi
echo "policy reload: a ConfigMap-style swap of policy.json is applied by policy/reload ($before -> $after)"
