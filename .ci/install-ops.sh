#!/usr/bin/env bash
# Debian packages the operations tests need (issue 20), in one apt run:
#   python3-prometheus-client  the official Prometheus parser that reads /metrics in tests/metering/metrics.test.ts
#   qemu-user, libc6-arm64-cross  run the linux-arm64 release binary (.ci/release-check.sh)
#   systemd                    systemd-analyze for the unit check (.ci/service-check.sh); nothing is started
#   nginx                      docs/deployment.md's recipe in front of the binary (tests/e2e/nginx.test.ts); the
#                              test runs its own nginx in the foreground; the package's service is not needed
set -uo pipefail
missing=()
/usr/bin/python3 -c "import prometheus_client.parser" >/dev/null 2>&1 || missing+=(python3-prometheus-client)
command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user)
[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || missing+=(libc6-arm64-cross)
command -v systemd-analyze >/dev/null 2>&1 || missing+=(systemd)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0
apt-get update -qq >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1
