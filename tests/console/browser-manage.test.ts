// The console's other controls in Chromium, against the compiled binary: remembered sign-in, the language and
// theme switches, the update badge from a release feed, account/key/proxy edits and deletes, batch import,
// search, proxy binding, deleting sessions, a pinned account and an attached file in the playground, history
// retention and deletes, backup download and restore.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromiumPath, NO_CHROMIUM_REASON } from "../helpers/browser";
import { requireTool } from "../helpers/require-tool";
import { ConsoleSession } from "../helpers/console-browser";
import { scratchDir } from "../helpers/scratch";
// The account's password is the run's leak marker: the backup written below must not outlive the run (issue 33).
import { LEAK_MARKER } from "../helpers/secret-marker";
import { releaseEvent, startFakeFeed, type FakeFeed } from "../helpers/fake-feed";

const HAVE_CHROMIUM = requireTool(import.meta.path, "Chromium", chromiumPath() !== null, NO_CHROMIUM_REASON);
const STEP = 60_000;

let s: ConsoleSession;
let feed: FakeFeed;

describe.skipIf(!HAVE_CHROMIUM)("admin console controls in Chromium", () => {
  beforeAll(async () => {
    feed = startFakeFeed();
    feed.set("/repos/owner/svc-gateway/events", { body: [releaseEvent(1, "v9.9.9", "2026-10-01T00:00:00Z")] });
    s = await ConsoleSession.open({ keys: ["sk-manage"], release: { feed_url: `${feed.origin}/repos/owner/svc-gateway/events` } });
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    feed?.stop();
  });

  test(
    "remember me keeps the token in localStorage across tabs; sign out clears it",
    async () => {
      await s.signIn(s.gw.adminKey, { remember: true });
      expect(await s.page.evaluate(() => [sessionStorage.getItem("svc-console-token"), typeof localStorage.getItem("svc-console-token")])).toEqual([null, "string"]);
      const other = await s.browser.context.newPage();
      await other.goto(`${s.gw.url}/admin`);
      await other.getByRole("heading", { name: "Overview" }).waitFor();
      await other.close();
      await s.page.getByTestId("sign-out").click();
      await s.page.locator("input[name=secret]").waitFor();
      expect(await s.page.evaluate(() => localStorage.getItem("svc-console-token"))).toBeNull();
      await s.signIn();
    },
    STEP,
  );

  test(
    "the language and theme switches apply at once and are remembered",
    async () => {
      await s.go("overview");
      await s.page.getByTestId("lang-toggle").click();
      await s.page.getByRole("heading", { name: "概览" }).waitFor();
      await s.page.getByTestId("theme-toggle").click();
      await s.page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
      await s.page.reload();
      await s.page.getByRole("heading", { name: "概览" }).waitFor();
      expect(await s.page.evaluate(() => [document.documentElement.dataset.theme, document.documentElement.lang])).toEqual(["dark", "zh-CN"]);
      await s.page.getByTestId("lang-toggle").click();
      await s.page.getByTestId("theme-toggle").click();
      await s.page.getByRole("heading", { name: "Overview" }).waitFor();
      await s.page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    },
    STEP,
  );

  test(
    "overview shows the update the release feed announces",
    async () => {
      await s.go("overview");
      await s.page.getByText("Update available: 9.9.9").waitFor();
      expect(await s.page.getByRole("link", { name: "release notes" }).getAttribute("href")).toContain("v9.9.9");
    },
    STEP,
  );

  test(
    "accounts: batch import, search, edit, bind a proxy, delete sessions, delete",
    async () => {
      await s.api("/admin/proxies", { method: "POST", body: { id: "px1", name: "office proxy", type: "http", host: "127.0.0.1", port: 9 } });
      await s.go("accounts");
      await s.page.getByRole("button", { name: "Batch import" }).click();
      await s.page.getByRole("dialog").locator("textarea").fill(`one@demo.test:${LEAK_MARKER}\ntwo@demo.test:pw2\n`);
      await s.page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
      await s.page.getByText("Imported 2 accounts, skipped 0.").waitFor();
      await s.page.locator("tr[data-account]").nth(1).waitFor();

      await s.page.getByRole("searchbox", { name: "Search accounts" }).fill("two@");
      await s.page.locator("tr[data-account]").first().waitFor();
      await expectCount("tr[data-account]", 1);
      const row = s.page.locator('tr[data-account="two@demo.test"]');

      await row.getByRole("button", { name: "Edit" }).click();
      await s.page.getByRole("dialog").locator("input[name=remark]").fill("night shift");
      await s.page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
      await row.getByText("night shift").waitFor();

      await row.getByRole("button", { name: "Delete sessions" }).click();
      await s.page.getByText("Sessions deleted.").waitFor({ timeout: 30_000 });

      await row.getByRole("combobox").selectOption("px1");
      await waitFor(async () => (await s.api("/admin/accounts?q=two")).items[0].proxy_id === "px1");

      await row.getByRole("button", { name: "Delete", exact: true }).click();
      await waitFor(async () => (await s.api("/admin/accounts")).total === 1);
      await s.page.getByRole("searchbox", { name: "Search accounts" }).fill("");
      await expectCount("tr[data-account]", 1);
    },
    STEP,
  );

  test(
    "keys: edit the remark, show, delete",
    async () => {
      await s.go("keys");
      const row = s.page.locator("tbody tr").first();
      await row.getByRole("button", { name: "Edit" }).click();
      await s.page.getByRole("dialog").locator("input[name=remark]").fill("for the CI");
      await s.page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
      await row.getByText("for the CI").waitFor();
      await row.getByRole("button", { name: "Show" }).click();
      expect(await row.locator("code").textContent()).toBe("sk-manage");
      await row.getByRole("button", { name: "Delete" }).click();
      await s.page.getByText("No keys yet.", { exact: false }).waitFor();
      expect((await s.api("/admin/config")).api_keys).toEqual([]);
    },
    STEP,
  );

  test(
    "proxies: edit the name, delete",
    async () => {
      await s.go("proxies");
      const row = s.page.locator('tr[data-proxy="px1"]');
      await row.getByRole("button", { name: "Edit" }).click();
      await s.page.getByRole("dialog").locator("input[name=name]").fill("home proxy");
      await s.page.getByRole("dialog").getByRole("button", { name: "Save" }).click();
      await row.getByText("home proxy").waitFor();
      await row.getByRole("button", { name: "Delete" }).click();
      await s.page.getByText("No proxies.", { exact: false }).waitFor();
      expect((await s.api("/admin/proxies")).total).toBe(0);
    },
    STEP,
  );

  test(
    "playground: a pinned account, an attached file, a non-streamed answer",
    async () => {
      await s.api("/admin/keys", { method: "POST", body: { key: "sk-pinned-run", name: "pin key" } });
      await s.go("playground");
      await s.page.locator("select[name=account] option", { hasText: "one@demo.test" }).waitFor({ state: "attached" });
      await s.page.locator("select[name=key]").selectOption("sk-pinned-run");
      await s.page.locator("select[name=account]").selectOption("one@demo.test");
      await s.page.locator("input[name=stream]").uncheck();
      await s.page.locator("input[name=record]").check();
      await s.page.locator("input[name=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("The meeting is on Tuesday.") });
      await s.page.locator("textarea[name=message]").fill("Read the attached notes");
      await s.page.getByRole("button", { name: "Send" }).click();
      await s.page.locator(".msg-assistant .msg-text").waitFor({ timeout: 45_000 });
      expect(await s.page.locator(".msg-user").textContent()).toContain("notes.txt");
      const list = await s.api("/admin/chat-history");
      expect(list.items[0].stream).toBe(false);
      expect(list.items[0].source).toBe("console-playground");
      expect(list.items[0].account_id).toBe("one@demo.test");
    },
    STEP,
  );

  test(
    "conversations: the retention limit, delete one, delete all",
    async () => {
      await s.api("/admin/chat-history/settings", { method: "PUT", body: { limit: 20 } });
      await s.go("conversations");
      await s.page.locator("tr[data-conversation]").first().waitFor();
      await s.page.locator("input[name=limit]").fill("5");
      await s.page.getByRole("button", { name: "Save", exact: true }).click();
      await s.page.getByText("Keeping the last 5 conversations.").waitFor();
      expect((await s.api("/admin/chat-history")).limit).toBe(5);
      await s.page.locator("input[name=limit]").fill("5000");
      await s.page.getByRole("button", { name: "Save", exact: true }).click();
      await s.page.getByRole("alert").waitFor();

      await s.page.locator("tr[data-conversation] a").first().click();
      await s.page.getByTestId("conversation-detail").getByRole("button", { name: "Delete" }).click();
      await s.page.locator("input[name=limit]").waitFor();
      await waitFor(async () => (await s.api("/admin/chat-history")).total === 0);
    },
    STEP,
  );

  test(
    "settings: a backup downloads the configuration; restoring a file merges its key",
    async () => {
      await s.go("settings");
      const [download] = await Promise.all([s.page.waitForEvent("download"), s.page.getByRole("button", { name: "Download backup" }).click()]);
      // The backup holds accounts' passwords and tokens: in this test's own directory, removed at once (issue 33).
      const dir = scratchDir("svc-console-backup-");
      const saved = join(dir, "backup.json");
      await download.saveAs(saved);
      const backup = JSON.parse(readFileSync(saved, "utf8"));
      expect(backup.accounts.map((a: { email: string }) => a.email)).toEqual(["one@demo.test"]);

      backup.api_keys = [{ key: "sk-restored", name: "restored", remark: "" }];
      backup.keys = ["sk-restored"];
      writeFileSync(saved, JSON.stringify(backup));
      await s.page.locator('section[data-group="backup"] input[type=file]').setInputFiles(saved);
      await s.page.getByText(/^Restored: \d+ keys/).waitFor();
      expect((await s.api("/admin/config")).api_keys.map((k: { key: string }) => k.key)).toContain("sk-restored");
      rmSync(dir, { recursive: true, force: true });
    },
    STEP,
  );

  test(
    "settings: the admin API reference downloads with the console's token; the public one is a plain link",
    async () => {
      await s.go("settings");
      const section = s.page.locator('section[data-group="api-reference"]');
      expect(await section.getByRole("link", { name: "Public API (OpenAPI)" }).getAttribute("href")).toBe("/openapi.json");
      const [download] = await Promise.all([s.page.waitForEvent("download"), section.getByRole("button", { name: "Download admin API reference" }).click()]);
      const dir = scratchDir("svc-console-openapi-");
      const saved = join(dir, "admin-openapi.json");
      await download.saveAs(saved);
      const doc = JSON.parse(readFileSync(saved, "utf8"));
      rmSync(dir, { recursive: true, force: true });
      expect(doc.paths["/admin/keys"]).toBeDefined();
      expect(Object.keys(doc.paths).every((p) => p.startsWith("/admin"))).toBe(true);
    },
    STEP,
  );

  test(
    "accounts: more than a page of accounts pages ten at a time",
    async () => {
      const lines = Array.from({ length: 12 }, (_, i) => `bulk${String(i).padStart(2, "0")}@demo.test:pw`).join("\n");
      await s.go("accounts");
      await s.page.getByRole("button", { name: "Batch import" }).click();
      await s.page.getByRole("dialog").locator("textarea").fill(lines);
      await s.page.getByRole("dialog").getByRole("button", { name: "Import" }).click();
      await s.page.getByText("Imported 12 accounts, skipped 0.").waitFor();
      const total = (await s.api("/admin/accounts")).total;
      await s.page.getByText(`Page 1 of 2 (${total} accounts)`).waitFor();
      await expectCount("tr[data-account]", 10);
      await s.page.getByRole("button", { name: "Next" }).click();
      await s.page.getByText(`Page 2 of 2 (${total} accounts)`).waitFor();
      await expectCount("tr[data-account]", total - 10);
      await s.page.getByRole("button", { name: "Previous" }).click();
      await s.page.getByText(`Page 1 of 2 (${total} accounts)`).waitFor();
    },
    STEP,
  );
});

async function expectCount(selector: string, n: number) {
  await waitFor(async () => (await s.page.locator(selector).count()) === n);
}

/** Polls a condition the page brings about asynchronously; fails with the condition's text after 10 s. */
async function waitFor(cond: () => Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met: ${cond.toString().slice(0, 160)}`);
    await Bun.sleep(50);
  }
}
