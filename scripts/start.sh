#!/usr/bin/env bash
# `npm start`: install (once), build, and open Hearth.
# - The desktop app (Electron) when its binary is installed and there is a display.
# - Otherwise the same interface in the browser (`hearth serve --open`, web mode on 127.0.0.1): Electron's
#   binary cannot be downloaded on every machine (e.g. no access to GitHub), and a headless box has no window.
# `npm start -- --web` always chooses the browser; `--terminal` the terminal chat.
# With no model and no provider configured, either interface opens on its onboarding screen.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=auto
case "${1:-}" in
  --web) mode=web; shift ;;
  --terminal) mode=terminal; shift ;;
esac

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # The Electron download is tried on its own below, so a machine that cannot reach it still installs.
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund
fi

electron_binary() {
  node -e 'const p = require("electron"); require("fs").accessSync(p, require("fs").constants.X_OK); console.log(p)' 2>/dev/null
}

# dist/renderer is older than any file it is built from (or missing).
renderer_stale() {
  local built=dist/renderer/index.html
  [ -f "$built" ] || return 0
  [ -n "$(find src/renderer src/shared vite.config.ts package-lock.json -newer "$built" -print -quit 2>/dev/null)" ]
}

has_display() {
  case "$(uname -s)" in
    Darwin | MINGW* | MSYS* | CYGWIN*) return 0 ;;
  esac
  [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]
}

if [ "$mode" = auto ]; then
  if has_display; then
    if ! electron_binary >/dev/null && [ -f node_modules/electron/install.js ]; then
      echo "Fetching the Electron binary…" >&2
      node node_modules/electron/install.js >&2 || echo "The Electron binary could not be downloaded here." >&2
    fi
    if electron_binary >/dev/null; then mode=desktop; else mode=web; fi
  else
    echo "No display found: opening Hearth in web mode (the same interface, served on 127.0.0.1)." >&2
    mode=web
  fi
fi

case "$mode" in
  desktop)
    npm run --silent build:electron
    exec "$(electron_binary)" . "$@"
    ;;
  web)
    # The CLI (incremental tsc) and the injection scanner's weights (retrained only when what they are trained
    # from changed), then the renderer only when its sources are newer than the last build.
    npm run --silent build
    if renderer_stale; then npx vite build --logLevel warn; fi
    exec node bin/hearth.js serve --open "$@"
    ;;
  terminal)
    npm run --silent build
    if [ ! -f "${HEARTH_HOME:-$HOME/.hearth}/config.yaml" ] && [ -t 0 ]; then
      node bin/hearth.js setup
    fi
    exec node bin/hearth.js "$@"
    ;;
esac
