#!/usr/bin/env bash
# Sets up and runs the embedded default: `switchyard serve` with a private PostgreSQL cluster,
# the provider sandboxes, the plugins built from this repository and a demo tenant.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
swift build -c release
exec .build/release/switchyard serve "$@"
