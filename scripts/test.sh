#!/usr/bin/env bash
# The one test command (README: `npm test`; CI: `.ci/run`). On a fresh Debian/Ubuntu machine it provisions
# what the suite needs from the project's own files, then runs lint, typecheck, build and every test inside
# a private D-Bus session with an unlocked gnome-keyring (the real OS keychain the app uses).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\n== %s\n' "$*"; }

# 1. System packages: the Secret Service (keychain), D-Bus, ripgrep (search_files' fast path), script(1),
#    Chromium (the renderer's end-to-end tests), CJK fonts (the Chinese UI's screenshots), and for the execution
#    backends' tests dockerd + a static busybox (a registry-free test image) and sshd. Those tests start and stop
#    their own isolated daemons (test/fixtures/dockerd.ts, test/fixtures/sshd.ts).
missing=()
command -v dbus-run-session >/dev/null || missing+=(dbus)
command -v gnome-keyring-daemon >/dev/null || missing+=(gnome-keyring)
command -v rg >/dev/null || missing+=(ripgrep)
command -v script >/dev/null || missing+=(bsdutils)   # a pseudo-terminal for the interactive CLI tests
[ -x /usr/lib/chromium/chromium ] || missing+=(chromium)
fc-list 2>/dev/null | grep -qi 'noto sans cjk' || missing+=(fonts-noto-cjk)
command -v dockerd >/dev/null || missing+=(docker.io)
dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)   # static: it is the whole test image
[ -x /usr/sbin/sshd ] || missing+=(openssh-server)
if ((${#missing[@]})); then
  log "installing system packages: ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  elif command -v sudo >/dev/null; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "missing system packages: ${missing[*]} (install them with apt-get, then rerun)" >&2
    exit 1
  fi
fi

# 2. Node dependencies, exactly as locked. Reinstall only when the lock changed since the last install.
#    The Electron binary cannot be downloaded here (and tests never launch it): skip its download.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm ci"
  npm ci --no-audit --no-fund
fi

# 3. Static checks and the build the CLI runs from.
log "lint";      npx eslint .
log "typecheck"; npx tsc -p tsconfig.json --noEmit && npx tsc -p tsconfig.renderer.json
log "build";     npm run --silent build && npx vite build --logLevel warn

# 4. Tests, inside a private keychain session that ends with this script.
log "tests"
# A throwaway keyring folder: a developer's own login keyring (with its own password) is never touched,
# and a fresh one is created with the test password.
keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
XDG_DATA_HOME="$keyring_home" dbus-run-session -- bash -c '
  set -euo pipefail
  # The keyring daemon lives on this private bus and exits with it when dbus-run-session ends.
  eval "export $(printf "hearth-test\n" | gnome-keyring-daemon --unlock --components=secrets)"
  npx vitest run "$@"
' bash "$@"
