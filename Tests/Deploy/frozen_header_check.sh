#!/usr/bin/env bash
# A plugin built against the first published version-1 header (Tests/Fixtures/ABI/v1-first, frozen) still
# loads and passes `switchyard plugins check`: the C example, compiled against that header alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${SWITCHYARD_BIN:-$(pwd)/.build/debug/switchyard}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -Wall -Wextra -Werror -shared -fPIC -I Tests/Fixtures/ABI/v1-first -o "$work/libCEchoPlugin.so" \
  Plugins/Examples/c-echo/c_echo.c -lpthread
"$binary" plugins check "$work/libCEchoPlugin.so" --scenario Plugins/Examples/c-echo/scenario.json
