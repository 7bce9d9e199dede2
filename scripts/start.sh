#!/usr/bin/env bash
# `npm start`: install (once), build, and start the `hearth` chat. The first run without a configured
# model opens the setup wizard.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
npx tsc -p tsconfig.build.json
if [ ! -f "${HEARTH_HOME:-$HOME/.hearth}/config.yaml" ] && [ -t 0 ]; then
  node bin/hearth.js setup
fi
exec node bin/hearth.js "$@"
