#!/usr/bin/env bash
# The README's test command: installs what the tests need on a fresh Debian machine, builds,
# type-checks, and runs every test (keychain tests inside a private D-Bus session with a real
# gnome-keyring Secret Service).
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(chromium gnome-keyring libsecret-1-dev dbus dbus-x11 espeak-ng sox libsox-fmt-all opus-tools ffmpeg fonts-dejavu-core python3 make g++ openssl libglib2.0-bin)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "Installing apt packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# keytar's prebuilt download is not reachable everywhere: build it from source against libsecret.
export npm_config_build_from_source=true
if [ -z "${npm_config_nodedir:-}" ] && [ -d /usr/include/node ]; then export npm_config_nodedir=/usr; fi
# The Electron binary is not needed for these tests (the renderer runs in Debian's Chromium).
export ELECTRON_SKIP_BINARY_DOWNLOAD=1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
# keytar and better-sqlite3 are built for the Node.js that runs the tests (npm start rebuilds them
# for Electron).
node -e "require('keytar')" 2>/dev/null || npm rebuild keytar --build-from-source
node -e "require('better-sqlite3')" 2>/dev/null || npm rebuild better-sqlite3 --build-from-source

npm run build
npm run check

# A throw-away login keyring: the daemon creates it in this folder, unlocked with this password,
# so the tests never touch (or depend on) the user's own keyrings.
export VOICE_REVIEW_KEYRING_PASSWORD="${VOICE_REVIEW_KEYRING_PASSWORD:-voice-review-test}"
VOICE_REVIEW_KEYRING_HOME="$(mktemp -d)"
export VOICE_REVIEW_KEYRING_HOME
trap 'rm -rf "$VOICE_REVIEW_KEYRING_HOME"' EXIT
dbus-run-session -- sh -c 'printf %s "$VOICE_REVIEW_KEYRING_PASSWORD" | XDG_DATA_HOME="$VOICE_REVIEW_KEYRING_HOME" gnome-keyring-daemon --unlock --components=secrets >/dev/null && npx vitest run'
