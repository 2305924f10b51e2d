#!/usr/bin/env bash
# The text-browser test (tests/e2e/text-browser.spec.ts) reads pages with Debian's w3m (a few seconds to install).
set -euo pipefail
if command -v w3m >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "w3m not found: installing Debian's w3m…"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq w3m >/dev/null 2>&1 || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq w3m >/dev/null
  }
  exit 0
fi
echo "w3m not found. Install it (sudo apt-get install w3m)." >&2
exit 1
