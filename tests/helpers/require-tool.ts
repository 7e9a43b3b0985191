// Suites that need a tool from outside the repository (Chromium, tinyproxy/microsocks, redis-server, the pinned
// client CLIs and SDKs, qemu, podman, nginx) ask here whether they may run (issue 33 item 4):
// - the tool is there: run;
// - it is missing under CI=true (what .ci/run sets): a failing test that names the tool and how to install it,
//   so CI can never go green by skipping;
// - it is missing elsewhere (a developer's machine): skip, and say why on stderr.
import { test } from "bun:test";
import { relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

/** CI=true, 1 or yes (any case). */
export const IN_CI = /^(1|true|yes)$/i.test(process.env.CI?.trim() ?? "");

const shown = (file: string) => (file.startsWith("/") ? relative(ROOT, file) : file);

/**
 * Whether a suite that needs `what` can run. `file` is the test file (import.meta.path); `reason` says what is
 * missing and how to get it. Call it at the top level of the test file, before its describe blocks.
 */
export function requireTool(file: string, what: string, available: boolean, reason: string): boolean {
  if (available) return true;
  if (IN_CI) {
    test(`${what} is installed (CI=true: a suite that needs it must not skip)`, () => {
      throw new Error(`${shown(file)}: ${reason}`);
    });
  } else {
    console.warn(`[skip] ${shown(file)}: ${reason}`);
  }
  return false;
}

/**
 * For suites that run only in their own CI step (release binaries, the container, the systemd unit): skipped in
 * a plain `bun test`, with the reason printed, CI included — the step that enables them runs them.
 */
export function optInSuite(file: string, enabled: boolean, reason: string): boolean {
  if (!enabled) console.warn(`[skip] ${shown(file)}: ${reason}`);
  return enabled;
}
