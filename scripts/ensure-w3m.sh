#!/usr/bin/env bash
# The text-browser test (tests/e2e/text-browser.spec.ts) reads pages with Debian's w3m (a few seconds to install).
set -euo pipefail
if command -v w3m >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  # Both projects' workers may ask at once: one installs, the other waits for it and finds w3m there. Another
  # script's apt-get (the suites' ensure-*.sh) is waited for through dpkg's own lock.
  exec 9>"${TMPDIR:-/tmp}/ensure-w3m.lock"
  flock -w 300 9
  if command -v w3m >/dev/null 2>&1; then exit 0; fi
  echo "w3m not found: installing Debian's w3m…"
  apt() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 "$@"; }
  apt install -y -qq w3m >/dev/null 2>&1 || {
    apt update -qq
    apt install -y -qq w3m >/dev/null
  }
  exit 0
fi
echo "w3m not found. Install it (sudo apt-get install w3m)." >&2
exit 1
