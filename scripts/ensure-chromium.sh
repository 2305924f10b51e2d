#!/usr/bin/env bash
# The browser tests use Debian's Chromium (test tools cannot download their own browser here).
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$bin" ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Chromium not found: installing Debian's chromium (about 30 s)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "Chromium not found at $bin. Install it (sudo apt-get install chromium) or set CHROMIUM_PATH." >&2
exit 1
