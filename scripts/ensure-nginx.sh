#!/usr/bin/env bash
# The scale suite (npm run test:scale) puts Debian's nginx in front of two web instances, and needs
# redis-server for their shared state. As root with apt-get (CI), install what is missing; otherwise say so:
# the suite then skips with a printed reason.
set -euo pipefail
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "not found: ${missing[*]}: installing Debian's packages (about 20 s)…"
  apt-get update -qq
  # policy-rc.d: install the binaries without starting the distribution's nginx service on port 80.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "not found: ${missing[*]}: the scale suite will be skipped (apt-get install ${missing[*]})." >&2
