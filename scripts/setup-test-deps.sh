#!/usr/bin/env bash
# System packages the test suite needs beyond Node.js: Debian's chromium for the browser tests.
# Run as root on Debian; does nothing when everything is already there.
set -euo pipefail
if ! command -v chromium >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "setup-test-deps: chromium is missing and cannot be installed here (need root and apt-get)" >&2
  fi
fi
