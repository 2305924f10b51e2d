#!/usr/bin/env bash
# The browser tests use Debian's Chromium (test tools cannot download their own browser here): the headless shell
# for Playwright's suite (the browser Playwright itself runs headless: about half the CPU of the full browser's
# new headless mode, measured on this machine), the full browser for the benchmarks, screenshots and the one
# security test that loads a page.
set -euo pipefail
full="${CHROMIUM_PATH:-/usr/bin/chromium}"
shell="${CHROMIUM_SHELL_PATH:-/usr/bin/chromium-headless-shell}"
missing=()
[ -x "$full" ] || missing+=(chromium)
[ -x "$shell" ] || missing+=(chromium-headless-shell)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Not found: ${missing[*]}: installing Debian's packages (about 30 s)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "Not found: ${missing[*]}. Install (sudo apt-get install ${missing[*]}) or set CHROMIUM_PATH / CHROMIUM_SHELL_PATH." >&2
exit 1
