// The admin console in a real browser: Debian's Chromium driven by playwright-core against the compiled binary,
// whose core is the built-in simulator (no core origin configured). One operator session walks through the
// pages in order; each step checks what the operator sees and what the admin API then holds. Screenshots of
// every page (light/dark, English/Chinese, phone width) go to .ci-work/console/ for a person to look at.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { RunningBinary } from "../helpers/binary";
import { chromiumPath, NO_CHROMIUM_REASON } from "../helpers/browser";
import { ConsoleSession, SHOTS } from "../helpers/console-browser";
import { requireTool } from "../helpers/require-tool";

const HAVE_CHROMIUM = requireTool(import.meta.path, "Chromium", chromiumPath() !== null, NO_CHROMIUM_REASON);

const PAGES = ["overview", "accounts", "keys", "proxies", "playground", "conversations", "settings"] as const;
const STEP = 60_000;

let session: ConsoleSession;
let gw: RunningBinary;
let page: Page;
let token = "";

const adminApi = (path: string, init: { method?: string; body?: unknown } = {}) => session.api(path, init);
const signIn = (secret: string) => session.signIn(secret);
const go = (id: string) => session.go(id);
const shot = (name: string) => session.shot(name);

describe.skipIf(!HAVE_CHROMIUM)("admin console in Chromium", () => {
  beforeAll(async () => {
    session = await ConsoleSession.open({});
    gw = session.gw;
    page = session.page;
  }, 180_000);

  afterAll(() => session?.close());

  test(
    "a wrong secret is refused on the sign-in page; the right key signs in, token in sessionStorage only",
    async () => {
      await page.goto(`${gw.url}/admin`);
      await page.locator("input[name=secret]").waitFor();
      await shot("signin-light-en");
      await page.locator("input[name=secret]").fill("not-the-key");
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page.getByRole("alert").textContent()).resolves.toContain("Invalid admin credentials");

      await page.locator("input[name=secret]").fill(gw.adminKey);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
      const stored = await page.evaluate(() => [sessionStorage.getItem("svc-console-token"), localStorage.getItem("svc-console-token")]);
      expect(stored[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(stored[1]).toBeNull();
      token = stored[0]!;
      // Reloading verifies the stored token with /admin/verify and stays signed in.
      await page.reload();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
    },
    STEP,
  );

  test(
    "overview: pool cards, demo banner, version and uptime",
    async () => {
      await go("overview");
      await page.getByTestId("demo-banner").waitFor();
      await page.locator("[data-testid=stat-total] .stat-value", { hasText: "0" }).waitFor();
      expect(await page.getByTestId("version").textContent()).toContain("0.1.0");
      expect(await page.getByTestId("uptime").textContent()).toMatch(/\d+s|\d+m/);
    },
    STEP,
  );

  test(
    "accounts: add one, and it is tested at once (ok badge); the pool card counts it",
    async () => {
      await go("accounts");
      await page.getByRole("button", { name: "Add account" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.locator("input[name=login]").fill("operator@demo.test");
      await dialog.locator("input[name=password]").fill("pw-operator");
      await dialog.locator("input[name=name]").fill("First account");
      await shot("accounts-add-dialog-light-en");
      await dialog.getByRole("button", { name: "Save" }).click();
      const row = page.locator('tr[data-account="operator@demo.test"]');
      await row.locator(".badge-ok", { hasText: "ok" }).waitFor({ timeout: 45_000 });
      expect(await row.textContent()).toContain("First account");
      const listed = await adminApi("/admin/accounts");
      expect(listed.items.map((a: { identifier: string }) => a.identifier)).toEqual(["operator@demo.test"]);
      expect(listed.items[0].test_status).toBe("ok");

      await page.getByTestId("test-all").click();
      await page.getByText("Tested 1 accounts: 0 failed.").waitFor({ timeout: 45_000 });
      await go("overview");
      await page.locator("[data-testid=stat-total] .stat-value", { hasText: "1" }).waitFor();
    },
    STEP,
  );

  test(
    "keys: add a generated key with a name; the admin API holds exactly that key",
    async () => {
      await go("keys");
      await page.getByRole("button", { name: "Add key" }).click();
      const dialog = page.getByRole("dialog");
      const generated = await dialog.locator("input[name=key]").inputValue();
      expect(generated).toMatch(/^sk-[\w-]{43}$/);
      await dialog.getByRole("button", { name: "Generate" }).click();
      const key = await dialog.locator("input[name=key]").inputValue();
      expect(key).not.toBe(generated);
      await dialog.locator("input[name=name]").fill("playground key");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.locator('tr[data-key-name="playground key"]').waitFor();
      const cfg = await adminApi("/admin/config");
      expect(cfg.api_keys).toEqual([{ key, name: "playground key", remark: "" }]);
      // Masked until shown.
      expect(await page.locator('tr[data-key-name="playground key"] code').textContent()).not.toBe(key);
    },
    STEP,
  );

  test(
    "proxies: add one, test it (latency or a failure reason is shown), batch import two",
    async () => {
      await go("proxies");
      await page.getByRole("button", { name: "Add proxy" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.locator("input[name=host]").fill("127.0.0.1");
      // Port 9 on loopback: nothing listens, so the test must report a failure, not hang.
      await dialog.locator("input[name=port]").fill("9");
      await dialog.getByRole("button", { name: "Save" }).click();
      const row = page.locator("tr", { hasText: "127.0.0.1:9" }).first();
      await row.waitFor();
      await row.getByRole("button", { name: "Test" }).click();
      await row.locator("[data-testid=proxy-result] .badge").waitFor({ timeout: 30_000 });
      expect(await row.locator("[data-testid=proxy-result] .badge").textContent()).toBe("failed");

      await page.getByRole("button", { name: "Batch import" }).click();
      await page.getByRole("dialog").locator("textarea").fill("socks5://alice:secret@127.0.0.2:1080\n127.0.0.3:3128:bob:pw");
      await page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
      await page.getByText("Imported 2 proxies.").waitFor();
      const proxies = (await adminApi("/admin/proxies")).items;
      expect(proxies.map((p: any) => `${p.type}://${p.username}@${p.host}:${p.port}`).sort()).toEqual(["http://@127.0.0.1:9", "http://bob@127.0.0.3:3128", "socks5://alice@127.0.0.2:1080"]);
      expect(proxies.find((p: any) => p.host === "127.0.0.2").has_password).toBe(true);
    },
    STEP,
  );

  test(
    "playground: a streamed answer with reasoning, then a streamed tool call; kept in history only when asked",
    async () => {
      const before = (await adminApi("/admin/chat-history")).total;
      await go("playground");
      await page.locator("select[name=key] option", { hasText: "playground key" }).waitFor({ state: "attached" });
      await page.locator("textarea[name=message]").fill("Hello from the playground, not recorded");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".msg-assistant .msg-text").first().waitFor({ timeout: 45_000 });
      await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 45_000 });
      expect((await adminApi("/admin/chat-history")).total).toBe(before);

      await page.getByRole("button", { name: "Clear conversation" }).click();
      await page.locator("input[name=record]").check();
      await page.locator("textarea[name=message]").fill("Hello from the console");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 45_000 });
      const answer = await page.locator(".msg-assistant .msg-text").first().textContent();
      expect(answer).toContain("Hello from the console");
      expect(await page.getByTestId("reasoning").count()).toBeGreaterThan(0);

      await page.locator("input[name=tools-on]").check();
      await page.locator("textarea[name=message]").fill("Please call get_weather for Paris");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 45_000 });
      const call = page.getByTestId("tool-call").last();
      expect(await call.locator("code").textContent()).toBe("get_weather");
      expect(await page.locator(".msg-assistant").last().textContent()).toContain("finish_reason: tool_calls");
      await shot("playground-after-run-light-en");
      expect((await adminApi("/admin/chat-history")).total).toBe(before + 2);
    },
    120_000,
  );

  test(
    "conversations: the playground's tool-call conversation, its messages, tool call and final prompt",
    async () => {
      await go("conversations");
      const rows = page.locator("tr[data-conversation]");
      await rows.first().waitFor();
      expect(await rows.count()).toBe(2);
      // Newest first: the tool-call turn.
      await rows.first().locator("a").click();
      const detail = page.getByTestId("conversation-detail");
      await detail.getByTestId("tool-call").waitFor();
      expect(await detail.getByTestId("tool-call").locator("code").textContent()).toBe("get_weather");
      expect((await detail.getByTestId("request-message").allTextContents()).join("\n")).toContain("Please call get_weather for Paris");
      await detail.getByText("Final prompt sent to core").click();
      expect(await detail.getByTestId("final-prompt").textContent()).toContain("get_weather");
      expect(await detail.textContent()).toContain("console-playground");
    },
    STEP,
  );

  test(
    "XSS: markup in a conversation is shown as characters, never run",
    async () => {
      const cfg = await adminApi("/admin/config");
      const evil = "<img src=x onerror=alert(1)>";
      const r = await fetch(`${gw.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${cfg.api_keys[0].key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: evil }] }),
      });
      expect(r.status).toBe(200);
      await go("conversations");
      const row = page.locator("tr[data-conversation]", { hasText: evil }).first();
      await row.waitFor();
      await row.locator("a").click();
      const detail = page.getByTestId("conversation-detail");
      await detail.getByTestId("request-message").first().waitFor();
      expect(await detail.getByTestId("request-message").first().textContent()).toBe(evil);
      expect(await detail.getByTestId("answer").textContent()).toContain(evil);
      expect(await page.locator("img").count()).toBe(0);
      await page.waitForTimeout(300);
      expect(session.dialogs.filter((d) => d.startsWith("alert"))).toEqual([]);
      await shot("conversation-detail-light-en");
    },
    STEP,
  );

  test(
    "settings: an invalid value shows the API's message; a valid one is saved",
    async () => {
      await go("settings");
      const group = page.locator('form[data-group="runtime"]');
      await group.locator("input[name=account_max_inflight]").fill("0");
      await group.getByRole("button", { name: "Save" }).click();
      const msg = await group.getByRole("alert").textContent();
      expect(msg).toContain("account_max_inflight");
      await group.locator("input[name=account_max_inflight]").fill("3");
      await group.getByRole("button", { name: "Save" }).click();
      await group.getByText("Saved.").waitFor();
      expect((await adminApi("/admin/settings")).runtime.account_max_inflight).toBe(3);

      const aliases = page.locator('form[data-group="model_aliases"]');
      await aliases.getByRole("button", { name: "Add alias" }).click();
      await aliases.locator("input").nth(0).fill("my-model");
      await aliases.locator("input").nth(1).fill("core-v4-flash");
      await aliases.getByRole("button", { name: "Save" }).click();
      await aliases.getByText("Saved.").waitFor();
      expect((await adminApi("/admin/settings")).model_aliases).toEqual({ "my-model": "core-v4-flash" });
    },
    STEP,
  );

  test(
    "screenshots of every page: light/dark, English/Chinese, and phone width",
    async () => {
      for (const theme of ["light", "dark"] as const) {
        for (const lang of ["en", "zh"] as const) {
          await page.evaluate(([t, l]: readonly [string, string]) => {
            localStorage.setItem("svc-console-theme", t);
            localStorage.setItem("svc-console-lang", l);
          }, [theme, lang] as const);
          // The preferences are read at start-up: a reload applies them as a returning operator would see them.
          await page.reload();
          for (const id of PAGES) {
            await go(id);
            expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
            expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === "zh" ? "zh-CN" : "en");
            await page.waitForTimeout(200);
            await shot(`${id}-${theme}-${lang}`);
          }
        }
      }
      // Chinese headings really render in Chinese.
      await go("accounts");
      expect(await page.locator("main h1").textContent()).toBe("账号");

      // The sign-in page in every combination: a new tab has its own (empty) sessionStorage.
      const signedOut = await session.browser.context.newPage();
      for (const [theme, lang] of [["light", "en"], ["light", "zh"], ["dark", "en"], ["dark", "zh"]] as const) {
        await page.evaluate(([t, l]: readonly [string, string]) => {
          localStorage.setItem("svc-console-theme", t);
          localStorage.setItem("svc-console-lang", l);
        }, [theme, lang] as const);
        await signedOut.goto(`${gw.url}/admin`);
        await signedOut.locator("input[name=secret]").waitFor();
        await signedOut.screenshot({ path: `${SHOTS}/signin-${theme}-${lang}.png` });
      }
      await signedOut.setViewportSize({ width: 390, height: 844 });
      await signedOut.reload();
      await signedOut.locator("input[name=secret]").waitFor();
      await signedOut.screenshot({ path: `${SHOTS}/signin-phone.png` });
      await signedOut.close();

      await page.setViewportSize({ width: 390, height: 844 });
      for (const [theme, lang, suffix] of [["dark", "zh", "-dark-zh"], ["light", "en", ""]] as const) {
        await page.evaluate(([t, l]: readonly [string, string]) => {
          localStorage.setItem("svc-console-theme", t);
          localStorage.setItem("svc-console-lang", l);
        }, [theme, lang] as const);
        await page.reload();
        for (const id of PAGES) {
          await go(id);
          await page.waitForTimeout(200);
          await shot(`${id}-phone${suffix}`);
          // No page is wider than the phone.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect({ id, lang, overflow }).toEqual({ id, lang, overflow: 0 });
        }
      }
      await page.getByRole("button", { name: "Menu" }).click();
      await page.locator("#nav.open").waitFor();
      await shot("menu-phone");
      await page.setViewportSize({ width: 1280, height: 800 });
      await go("overview");
      await shot("overview");
    },
    180_000,
  );

  test(
    "keyboard: Tab reaches the navigation and Enter opens a page",
    async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await go("overview");
      await page.locator("body").click({ position: { x: 5, y: 400 } });
      let reached = false;
      for (let i = 0; i < 15 && !reached; i++) {
        await page.keyboard.press("Tab");
        reached = (await page.evaluate(() => document.activeElement?.textContent)) === "Keys";
      }
      expect(reached).toBe(true);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Keys" }).waitFor();
    },
    STEP,
  );

  test(
    "a 401 signs out: after the password changes, the open console's token is refused and the sign-in page returns",
    async () => {
      await go("overview");
      const r = await fetch(`${gw.url}/admin/settings/password`, {
        method: "POST",
        headers: { Authorization: `Bearer ${gw.adminKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ new_password: "a-new-password-1" }),
      });
      expect(r.status).toBe(200);
      // The overview polls every few seconds; its next call answers 401.
      await page.locator("input[name=secret]").waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => sessionStorage.getItem("svc-console-token"))).toBeNull();
      expect(token).not.toBe("");
      // The new password signs in.
      await page.locator("input[name=secret]").fill("a-new-password-1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Overview" }).waitFor();
    },
    STEP,
  );

  test(
    "a changed setting is still there after a restart of the binary",
    async () => {
      await session.restart();
      gw = session.gw;
      await signIn(gw.adminKey);
      await go("settings");
      const input = page.locator('form[data-group="runtime"] input[name=account_max_inflight]');
      await input.waitFor();
      expect(await input.inputValue()).toBe("3");
      expect(await page.locator('form[data-group="model_aliases"] input').nth(0).inputValue()).toBe("my-model");
    },
    STEP,
  );
});
