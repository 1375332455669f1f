#!/usr/bin/env bash
# System packages the test suite needs beyond Node.js: Debian's chromium for the browser tests,
# Debian's stockfish for the UCI tests (`coco uci`), redis-server and postgresql for the
# multi-machine tests, and haproxy for the balancer test (the PROXY protocol); each test starts
# its own server on loopback in a temporary directory, the packages' own services are not used.
# Run as root on Debian; does nothing when everything is already there.
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v stockfish >/dev/null 2>&1 || [ -x /usr/games/stockfish ] || missing+=(stockfish)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "setup-test-deps: ${missing[*]} missing and cannot be installed here (need root and apt-get)" >&2
  exit 0
fi
# Another apt run may hold the dpkg lock for a while: wait for it rather than fail.
for attempt in 1 2 3 4 5 6 7 8 9 10; do
  if apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 "${missing[@]}" >/dev/null; then
    exit 0
  fi
  echo "setup-test-deps: apt-get failed (attempt $attempt), retrying" >&2
  sleep 10
done
# The tests that need a missing program fail and name it; the others still run.
echo "setup-test-deps: could not install ${missing[*]}" >&2
