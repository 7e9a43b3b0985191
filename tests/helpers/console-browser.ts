// One operator's console session for the browser suites: the compiled binary (demo mode on the built-in
// simulator), Chromium on a fresh profile, one page, and shorthands for the admin API and navigation.
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { startBinary, type RunningBinary } from "./binary";
import { launchChromium, type RunningBrowser } from "./browser";

export const SHOTS = resolve(import.meta.dir, "../../.ci-work/console");

export class ConsoleSession {
  /** Every dialog the page opened: confirm() is accepted, anything else (an alert would be an XSS) dismissed. */
  readonly dialogs: string[] = [];
  private constructor(
    public gw: RunningBinary,
    readonly browser: RunningBrowser,
    readonly page: Page,
    private readonly env: Record<string, string>,
  ) {}

  static async open(config: unknown = {}, env: Record<string, string> = {}): Promise<ConsoleSession> {
    mkdirSync(SHOTS, { recursive: true });
    const gw = await startBinary({ config, env });
    const browser = await launchChromium();
    const page = await browser.context.newPage();
    // A step that cannot happen fails in 15 s rather than 30 (account tests pass their own longer wait).
    page.setDefaultTimeout(15_000);
    const s = new ConsoleSession(gw, browser, page, env);
    page.on("dialog", (d) => {
      s.dialogs.push(`${d.type()}: ${d.message()}`);
      void (d.type() === "confirm" ? d.accept() : d.dismiss());
    });
    return s;
  }

  async restart(): Promise<void> {
    await this.gw.stop();
    this.gw = await startBinary({ dir: this.gw.dir, env: this.env });
  }

  async close(): Promise<void> {
    await this.browser.close();
    await this.gw.stop();
  }

  async api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
    const r = await fetch(`${this.gw.url}${path}`, {
      method: init.method ?? "GET",
      headers: { Authorization: `Bearer ${this.gw.adminKey}`, "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return r.json();
  }

  async signIn(secret = this.gw.adminKey, opts: { remember?: boolean } = {}): Promise<void> {
    await this.page.goto(`${this.gw.url}/admin`);
    await this.page.locator("input[name=secret]").fill(secret);
    if (opts.remember) await this.page.locator("input[name=remember]").check();
    await this.page.getByRole("button", { name: "Sign in" }).click();
    // The sign-in page has a heading too: the top bar appears only once signed in.
    await this.page.locator(".topbar").waitFor();
  }

  /** Opens a page by its hash route (a hash change: no reload). */
  async go(id: string): Promise<void> {
    await this.page.goto(`${this.gw.url}/admin#/${id}`);
    await this.page.locator(".topbar").waitFor();
  }

  async shot(name: string): Promise<void> {
    await this.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }
}
