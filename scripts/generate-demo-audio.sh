#!/usr/bin/env bash
# Regenerates the demo recordings (resources/demo/recordings/*.ogg) and resources/demo/seed.json
# from resources/demo/conversations.json and resources/demo/account.json. Run with `npm run audio`
# (existing recordings are kept; `npm run audio -- --force` encodes them all again).
set -euo pipefail

cd "$(dirname "$0")/.."

missing_tools=()
missing_packages=()
check() {
  local tool="$1" package="$2"
  if ! command -v "$tool" >/dev/null 2>&1; then
    missing_tools+=("$tool")
    missing_packages+=("$package")
  fi
}
check espeak-ng espeak-ng
check sox sox
check soxi sox
check opusenc opus-tools

if ((${#missing_tools[@]} > 0)); then
  echo "Missing tools: ${missing_tools[*]}" >&2
  echo "Install them with: sudo apt-get install espeak-ng sox libsox-fmt-all opus-tools" >&2
  echo "(needed here: $(printf '%s\n' "${missing_packages[@]}" | sort -u | tr '\n' ' '))" >&2
  exit 1
fi

exec npx tsx scripts/generate-demo-data.ts "$@"
