#!/usr/bin/env bash
# Headless Chromium for the memory inspector's browser tests (test/ui-browser.test.ts), from
# Debian's package: puppeteer-core drives it, so no browser is downloaded from elsewhere.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  echo "install-chromium: $(chromium --version 2>/dev/null || echo chromium) already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "install-chromium: $(chromium --version)"
