// A real Chromium from the system packages (Debian `chromium`), driven by playwright-core. Never downloads a
// browser: when none is installed, `chromiumPath()` is null and the browser suites skip with a reason.
import { existsSync, rmSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";
import { scratchDir } from "./scratch";

const CANDIDATES = [process.env.SVC_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

export function chromiumPath(): string | null {
  for (const p of CANDIDATES) if (p && existsSync(p)) return p;
  return null;
}

export const NO_CHROMIUM_REASON = "console browser tests skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium, or run .ci/console.sh)";

export interface RunningBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium on a new empty profile, with nothing that reaches beyond loopback. */
export async function launchChromium(): Promise<RunningBrowser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(NO_CHROMIUM_REASON);
  const profile = scratchDir("svc-console-profile-");
  // A persistent context is how playwright takes --user-data-dir: ours is new, empty and removed at close.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
