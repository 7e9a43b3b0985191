// Where the pinned clients live (tests/clients/node_modules, installed by .ci/clients.sh) and the one skip
// reason every clients test gives when they are missing, so a plain `bun test` on a dev machine stays green.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

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

/** Logs the skip reason once per file, so a skipped suite says why in the test output. */
export function announceSkip(what: string): void {
  if (!clientsInstalled) console.warn(`[skip] ${skipReason(what)}`);
}
