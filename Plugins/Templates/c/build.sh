#!/bin/sh
# Builds lib__Name__Plugin.so against the C SDK in sdk/ (written by `switchyard plugins new`, or again with
# `switchyard plugins sdk --out sdk`). Needs a C compiler, pthreads and OpenSSL 3's libcrypto and headers
# (Debian/Ubuntu: libssl-dev).
set -eu
cd "$(dirname "$0")"
${CC:-cc} -Wall -Wextra -O2 -shared -fPIC -I sdk/include -o lib__Name__Plugin.so src/__name__.c -lpthread -lcrypto
echo "built lib__Name__Plugin.so"
