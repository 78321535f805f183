#!/usr/bin/env bash
# Run by the postgres image on its first start (/docker-entrypoint-initdb.d): creates Switchyard's roles.
set -euo pipefail
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres \
  -v owner_password="$SWITCHYARD_OWNER_PASSWORD" -v app_password="$SWITCHYARD_APP_PASSWORD" \
  -f /switchyard/roles.sql
