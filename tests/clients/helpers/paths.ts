// Where the pinned clients live (tests/clients/node_modules, installed by .ci/clients.sh) and the one skip
// reason every clients test gives when they are missing, so a plain `bun test` on a dev machine stays green.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { requireTool } from "../../helpers/require-tool";

export const CLIENTS_DIR = resolve(import.meta.dir, "..");
export const CLIENT_MODULES = join(CLIENTS_DIR, "node_modules");

export const BIN = {
  claude: join(CLIENT_MODULES, ".bin", "claude"),
  codex: join(CLIENT_MODULES, ".bin", "codex"),
  gemini: join(CLIENT_MODULES, "@google", "gemini-cli", "bundle", "gemini.js"),
  opencode: join(CLIENT_MODULES, ".bin", "opencode"),
};

export const clientsInstalled = existsSync(join(CLIENT_MODULES, ".package-lock.json"));

export function skipReason(what: string): string {
  return `${what}: tests/clients/node_modules is missing — run .ci/clients.sh (npm ci of the pinned clients) to run it`;
}

/**
 * Once per file: nothing when the clients are installed; else skipped with the reason printed, or — under
 * CI=true — a failing test (tests/helpers/require-tool.ts). `.ci/run`'s main `bun test` sets
 * SVC_CLIENTS_DEFERRED=1: there the suite is skipped with that reason, and its own step (after .ci/clients.sh,
 * on the compiled binary) runs it, where a missing client fails.
 */
export function announceSkip(what: string): void {
  if (clientsInstalled) return;
  if (process.env.SVC_CLIENTS_DEFERRED === "1") console.warn(`[skip] ${what}: deferred to .ci/run's clients step (SVC_CLIENTS_DEFERRED=1)`);
  else requireTool("tests/clients", what, false, skipReason(what));
}
