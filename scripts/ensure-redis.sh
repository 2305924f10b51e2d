#!/usr/bin/env bash
# The security suite proves the shared (Redis) rate-limit store against a real redis-server when one is
# installed. As root with apt-get (CI), install Debian's redis-server; otherwise say so: that one test skips.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "redis-server not found: installing Debian's redis-server (about 15 s)…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  exit 0
fi
echo "redis-server not found: the shared rate-limit store test will be skipped (apt-get install redis-server)." >&2
