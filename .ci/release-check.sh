#!/usr/bin/env bash
# Release binaries (issue 20): builds every target with `bun run release`'s code (runtimes from the npm registry)
# and runs tests/ops-release/: file formats, SHA256SUMS, the host binary and the linux-arm64 binary under
# qemu-user. SVC_RELEASE_TARGETS narrows the targets (keep linux-x64 and linux-arm64). Prints the bun test
# summary; exit status is the test's.
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v qemu-aarch64 >/dev/null 2>&1 || [ ! -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user libc6-arm64-cross >/dev/null 2>&1 || echo "qemu-user / libc6-arm64-cross could not be installed"
fi
SVC_RELEASE_TEST=1 bun test tests/ops-release/ 2>&1
