#!/usr/bin/env bash
# The production executable carries no workshop: no symbol of the provider emulators (module ProviderSandbox),
# of the bench (SwitchyardBench), of the private PostgreSQL cluster (SwitchyardCluster) or of the development
# executable's module (the embedded default, demo seed and sandbox command), no plugin or emulator library
# linked dynamically; its --help lists the production commands and not `sandbox` or `bench`; and
# `serve` without a database refuses, naming --database-url and SWITCHYARD_DATABASE_URL, with a non-zero exit.
# With the development executable as second argument, the symbol check is shown to find what it looks for there.
# Usage: check_production_binary.sh SWITCHYARD_SERVER [SWITCHYARD]
set -uo pipefail
server=$(realpath "$1")
development=${2:+$(realpath "$2")}
status=0
fail() {
  echo "production binary: $*"
  status=1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A Swift symbol starts with `$s` and the length and name of the module defining it: `$s15ProviderSandbox`,
# `$s10switchyard` (the development executable's module), `$s15SwitchyardBench`, `$s17SwitchyardCluster`.
workshop='^[0-9a-f]+ [A-Za-z] \$s(15ProviderSandbox|10switchyard|15SwitchyardBench|17SwitchyardCluster)'
nm "$server" >"$work/symbols" 2>/dev/null || fail "nm cannot read $server"
[ -s "$work/symbols" ] || fail "$server has no symbol table to check"
if grep -Eq "$workshop" "$work/symbols"; then
  grep -E "$workshop" "$work/symbols" | head -5
  fail "$server links provider emulator, bench, private cluster or development executable code"
fi
if [ -n "$development" ]; then
  nm "$development" >"$work/development-symbols" 2>/dev/null
  grep -Eq '^[0-9a-f]+ [A-Za-z] \$s15ProviderSandbox' "$work/development-symbols" \
    || fail "the check finds no ProviderSandbox symbol in $development either: it would not notice one"
  grep -Eq '^[0-9a-f]+ [A-Za-z] \$s10switchyard8DemoSeed' "$work/development-symbols" \
    || fail "the check finds no DemoSeed symbol in $development either: it would not notice one"
  grep -Eq '^[0-9a-f]+ [A-Za-z] \$s15SwitchyardBench' "$work/development-symbols" \
    || fail "the check finds no SwitchyardBench symbol in $development either: it would not notice one"
  grep -Eq '^[0-9a-f]+ [A-Za-z] \$s17SwitchyardCluster' "$work/development-symbols" \
    || fail "the check finds no SwitchyardCluster symbol in $development either: it would not notice one"
fi
strings "$server" >"$work/strings"
for text in DemoSandboxMerchants SandboxServer EmbeddedServeCommand; do
  grep -q "$text" "$work/strings" && fail "$server contains '$text'"
done
ldd "$server" >"$work/ldd" 2>&1
if grep -Eq 'Plugin\.so|ProviderSandbox' "$work/ldd"; then
  cat "$work/ldd"
  fail "$server loads a plugin or emulator library"
fi

"$server" --help >"$work/help" 2>&1 || fail "$server --help exits non-zero"
for command in serve migrate plugins doctor policy kek; do
  grep -Eq "^ +$command( |$)" "$work/help" || fail "--help does not list $command"
done
for command in sandbox bench; do
  if grep -Eq "^ +$command( |$)" "$work/help"; then fail "--help lists $command"; fi
done
"$server" sandbox >"$work/sandbox" 2>&1 && fail "$server sandbox does not fail"
"$server" serve --help >"$work/serve-help" 2>&1
grep -q -- '--sandbox' "$work/serve-help" && fail "serve --help offers a sandbox option"

(
  cd "$work" || exit 1
  env -u SWITCHYARD_DATABASE_URL timeout -s INT 30 "$server" serve >"$work/serve.log" 2>&1
) && fail "serve without a database exited 0"
grep -q -- '--database-url' "$work/serve.log" && grep -q SWITCHYARD_DATABASE_URL "$work/serve.log" \
  || { cat "$work/serve.log"; fail "serve without a database does not name --database-url and SWITCHYARD_DATABASE_URL"; }
[ -e "$work/.switchyard" ] && fail "serve without a database created a data directory"

[ "$status" -eq 0 ] && echo "production binary: no emulator, demo seed, bench or private cluster; production commands only"
exit $status
