#!/usr/bin/env bash
# redis-server from Debian for the shared-state tests (issue 21): the tests start their own server on a free
# loopback port, so nothing is configured or left running here. Idempotent and quiet. Under CI=true the
# tests fail (rather than skip) when the binary is still missing.
set -u
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then echo "no apt-get: redis-server not installed"; exit 0; fi
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 || echo "apt-get could not install redis-server"
# The package may start a system service on 6379; the tests never use it.
exit 0
