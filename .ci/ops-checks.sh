#!/usr/bin/env bash
# Issue 20's checks outside the default `bun test`: release binaries (every target; arm64 under qemu-user),
# the container's root filesystem (needs root) and the systemd unit. Each prints its bun test summary; the last
# two lines are the totals in bun's own format (" N pass", " N fail") so .ci/run can read them like bun test's.
set -uo pipefail
cd "$(dirname "$0")/.."
bash .ci/install-ops.sh || echo "some ops packages could not be installed; the checks that need them will fail"
total_pass=0
total_fail=0
for script in .ci/release-check.sh .ci/container-check.sh .ci/service-check.sh; do
  echo "== $script"
  out=$(bash "$script" 2>&1)
  status=$?
  echo "$out" | tail -n 40
  p=$(echo "$out" | grep -E '^ *[0-9]+ pass$' | tail -1 | grep -oE '[0-9]+' || true)
  f=$(echo "$out" | grep -E '^ *[0-9]+ fail$' | tail -1 | grep -oE '[0-9]+' || true)
  p=${p:-0}
  f=${f:-0}
  # A script that failed without a test failing (could not install, build error) still counts as one failure.
  if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
done
echo " $total_pass pass"
echo " $total_fail fail"
[ "$total_fail" -eq 0 ]
