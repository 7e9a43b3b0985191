#!/usr/bin/env bash
# Container image contents (issue 20): tests/ops-container/ assembles the Dockerfile's final-stage root filesystem
# and runs the gateway chrooted in it as the image's user (needs root: unshare, chroot, mount). No container
# engine or registry is needed. Prints the bun test summary; exit status is the test's.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "container check needs root (chroot, unshare)"; exit 1; fi
SVC_CONTAINER_TEST=1 bun test tests/ops-container/ 2>&1
