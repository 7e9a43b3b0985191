#!/usr/bin/env bash
# The console's browser tests need a real Chromium and a CJK font (the Chinese screenshots), both from the
# Debian packages; playwright-core never downloads a browser. Run before `bun test`; the browser suite skips
# with a reason when Chromium is still missing.
set -uo pipefail
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
fc-list 2>/dev/null | grep -qiE "wqy|noto sans cjk|droid sans fallback" || need+=(fonts-wqy-zenhei)
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
[ -x /usr/bin/chromium ] && /usr/bin/chromium --version 2>/dev/null
