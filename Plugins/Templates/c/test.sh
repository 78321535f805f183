#!/bin/sh
# Builds the plugin, then the unit test, and runs the test against the built library.
set -eu
cd "$(dirname "$0")"
./build.sh
mkdir -p build
${CC:-cc} -Wall -Wextra -O1 -g -I sdk/include -o build/test___name__ test/test___name__.c -ldl -lpthread -lcrypto
./build/test___name__ ./lib__Name__Plugin.so
