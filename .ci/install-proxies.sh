#!/usr/bin/env bash
# Real local proxy servers for the proxy tests (Debian's tinyproxy and microsocks), and openssl for the
# certificates the socket client's TLS tests make. Idempotent and quiet;
# the tests say why they skip when a binary is missing.
set -u
if command -v tinyproxy >/dev/null 2>&1 && command -v microsocks >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then echo "no apt-get: proxy servers not installed"; exit 0; fi
SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq tinyproxy microsocks openssl >/dev/null 2>&1 || echo "apt-get could not install tinyproxy/microsocks/openssl"
exit 0
