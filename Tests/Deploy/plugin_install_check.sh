#!/usr/bin/env bash
# After the plugin author's walkthrough, against its still running embedded default (arguments: the base
# URL and the data directory): `plugins install` refuses, with the reason, a plugin that fails the check, a
# plugin the server then refuses (a second file with an id already served), and a wrong operator token;
# each time the policy file, the plugins directory and the served set stay as they were.
set -euo pipefail
cd "$(dirname "$0")/../.."
base=$1
data=$2
binary=${SWITCHYARD_BIN:-$(pwd)/.build/debug/switchyard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
token=$(python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["operator_token"])' "$data/demo.json")
served() {
  curl -sS --fail-with-body "$base/admin/v1/plugins" -H "Authorization: Bearer $token" |
    python3 -c 'import json,sys;print(sorted((p["id"],p["sha256"]) for p in json.load(sys.stdin)["loaded"]))'
}
state() { echo "$(sha256sum "$data/policy.json" | cut -d' ' -f1) $(ls "$data/plugins" | sort | tr '\n' ' ') $(served)"; }
refused() { # refused EXPECTED-TEXT COMMAND...: the command fails, says EXPECTED-TEXT and changes nothing
  local expected=$1
  shift
  local before after
  before=$(state)
  if "$@" >"$work/out" 2>&1; then
    echo "plugin install check: '$*' succeeded" >&2
    exit 1
  fi
  grep -q -- "$expected" "$work/out" || { echo "plugin install check: no '$expected' in:" >&2; cat "$work/out" >&2; exit 1; }
  after=$(state)
  [ "$before" = "$after" ] || { echo "plugin install check: '$*' changed the deployment" >&2; exit 1; }
  echo "refused as it should: $expected"
}

cc -shared -fPIC -I Sources/CSwitchyardPlugin/include -o "$work/libBrokenPlugin.so" Tests/Fixtures/Plugins/broken_plugin.c
refused "did not pass plugins check" "$binary" plugins install "$work/libBrokenPlugin.so" --data-dir "$data"

# The same plugin with one byte more (a new digest): a second file claiming the id citcon.
cp "$data/plugins/libCitconPlugin.so" "$work/libCitconAgainPlugin.so"
printf '\0' >>"$work/libCitconAgainPlugin.so"
refused "does not serve citcon" "$binary" plugins install "$work/libCitconAgainPlugin.so" --data-dir "$data" \
  --scenario Plugins/Citcon/scenario.json

echo "not-the-token" >"$work/token"
refused "answered 401" "$binary" plugins install "$work/libCitconAgainPlugin.so" --url "$base" \
  --token-file "$work/token" --plugins-dir "$data/plugins" --policy "$data/policy.json" \
  --scenario Plugins/Citcon/scenario.json
echo "plugin install check: every refusal left the deployment as it was"
