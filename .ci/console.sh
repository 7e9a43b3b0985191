#!/usr/bin/env bash
# The console's browser tests need a real Chromium and a CJK font (the Chinese screenshots), both from the
# Debian packages; playwright-core never downloads a browser. Run before `bun test`; the browser suite skips
# with a reason when Chromium is still missing.
set -uo pipefail
need=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
[ -x /usr/bin/chromium ] || need+=(chromium)
installed fonts-wqy-zenhei || installed fonts-noto-cjk || need+=(fonts-wqy-zenhei)
if ! command -v apt-get >/dev/null 2>&1; then
  echo "console: no apt-get; the browser tests skip unless Chromium is at /usr/bin/chromium"
  exit 0
fi
if [ ${#need[@]} -eq 0 ]; then
  echo "console: chromium and a CJK font are installed"
  exit 0
fi
echo "console: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null 2>&1 || true
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 || $SUDO apt-get install -y "${need[@]}"
if [ -x /usr/bin/chromium ]; then /usr/bin/chromium --version 2>/dev/null; else echo "console: chromium could not be installed; the browser tests will skip"; fi
exit 0
