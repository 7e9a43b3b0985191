#!/usr/bin/env bash
# Container image (issues 20 and 33): tests/ops-container/ assembles the Dockerfile's final-stage root filesystem
# and (1) runs the gateway chrooted in it as the image's user, (2) builds a local image from it with podman
# (FROM scratch + that rootfs + the Dockerfile's runtime lines) and runs it: HEALTHCHECK, non-root, /data kept
# across containers. No registry is contacted. Needs root; installs Debian's podman and runc when missing.
# Prints the bun test summary; exit status is the test's.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then echo "container check needs root (chroot, unshare, podman)"; exit 1; fi
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc uidmap >/dev/null 2>&1 || echo "podman/runc could not be installed; the podman test will fail under CI"
fi
SVC_CONTAINER_TEST=1 bun test tests/ops-container/ 2>&1
