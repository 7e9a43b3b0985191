#!/usr/bin/env bash
# systemd unit (issue 20): installs Debian's systemd package for systemd-analyze when missing (no systemd needs
# to run), then verifies deploy/svc-gateway.service and its exposure rating. Prints the bun test summary.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v systemd-analyze >/dev/null 2>&1; then
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null 2>&1 || echo "systemd could not be installed"
fi
SVC_SERVICE_TEST=1 bun test tests/ops-service/ 2>&1
