// The console in Chromium against a test simulator (scripted answers) and a fake hosting API: a conversation
// still streaming on core is followed to its end without a reload, polling with If-None-Match (304 while
// unchanged); the playground's Stop; a login core refuses; host sync.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import { chromiumPath, NO_CHROMIUM_REASON } from "../helpers/browser";
import { requireTool } from "../helpers/require-tool";
import { ConsoleSession } from "../helpers/console-browser";
import { startFakeHost, type FakeHost } from "../helpers/fake-host";

const HAVE_CHROMIUM = requireTool(import.meta.path, "Chromium", chromiumPath() !== null, NO_CHROMIUM_REASON);
const ACCOUNT = { email: "live@sim.test", password: "pw-live" };

let sim: CoreSimulator;
let s: ConsoleSession;
let host: FakeHost;

describe.skipIf(!HAVE_CHROMIUM)("console on a scripted simulator and a fake host, in Chromium", () => {
  beforeAll(async () => {
    sim = await startCoreSimulator({ difficulty: 1000, accounts: [ACCOUNT] });
    host = startFakeHost();
    s = await ConsoleSession.open(
      { keys: ["sk-live"], accounts: [ACCOUNT] },
      { SVC_CORE_BASE_URL: sim.url, HOST_API_BASE: host.base, HOST_TOKEN: "host-token-live", HOST_PROJECT_ID: "prj_console" },
    );
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    await sim?.stop();
    host?.stop();
  });

  test("a streaming conversation is followed to its end on the open detail page", async () => {
    // The first part of the answer, then core pauses before the rest.
    sim.enqueue({
      script: {
        name: "slow-answer",
        rounds: [
          {
            steps: [
              { ready: {} },
              { update_session: {} },
              { snapshot: { answer: "Live part one." } },
              { sleep: 4000 },
              { answer: " And the end." },
              { usage: {} },
              { status: "FINISHED" },
              { update_session: {} },
              { title: "Slow" },
              { close: {} },
            ],
          },
        ],
      },
      times: 1,
    });
    const statuses: number[] = [];
    s.page.on("response", (r) => {
      if (new URL(r.url()).pathname.startsWith("/admin/chat-history")) statuses.push(r.status());
    });
    await s.signIn();
    await s.go("conversations");

    const done = fetch(`${s.gw.url}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: "Bearer sk-live", "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash-nothinking", stream: true, messages: [{ role: "user", content: "Take your time" }] }),
    }).then((r) => r.text());

    const row = s.page.locator("tr[data-conversation]", { hasText: "Take your time" });
    await row.locator(".badge", { hasText: "streaming" }).waitFor();
    await row.locator("a").click();
    const detail = s.page.getByTestId("conversation-detail");
    await detail.locator(".badge", { hasText: "streaming" }).waitFor();
    await detail.getByText("Live part one.", { exact: false }).waitFor();
    await s.shot("conversation-streaming-light-en");

    await detail.locator(".badge", { hasText: "success" }).waitFor({ timeout: 20_000 });
    expect(await detail.getByTestId("answer").textContent()).toContain("Live part one. And the end.");
    expect(await done).toContain("[DONE]");
    // While nothing changed, the polls were answered 304 with no body.
    expect(statuses).toContain(304);
    expect(statuses.filter((x) => x !== 200 && x !== 304)).toEqual([]);
  }, 60_000);

  test("the playground's Stop button ends a streaming answer; the conversation is recorded as stopped", async () => {
    sim.enqueue({
      script: {
        name: "never-ending",
        rounds: [{ steps: [{ ready: {} }, { update_session: {} }, { snapshot: { answer: "Thinking slowly..." } }, { sleep: 30000 }, { close: {} }] }],
      },
      times: 1,
    });
    await s.go("playground");
    await s.page.locator("select[name=key] option").first().waitFor({ state: "attached" });
    await s.page.locator("input[name=record]").check();
    await s.page.locator("textarea[name=message]").fill("Please never stop");
    await s.page.getByRole("button", { name: "Send" }).click();
    await s.page.getByText("Thinking slowly...").waitFor();
    await s.page.getByTestId("stop").click();
    await s.page.getByText("Stopped.").waitFor();
    await s.page.getByRole("button", { name: "Send" }).waitFor();
    const deadline = Date.now() + 10_000;
    let status = "";
    while (Date.now() < deadline) {
      const list = await s.api("/admin/chat-history");
      status = list.items.find((i: { user_input_preview: string }) => i.user_input_preview === "Please never stop")?.status ?? "";
      if (status === "stopped") break;
      await Bun.sleep(100);
    }
    expect(status).toBe("stopped");
  }, 60_000);

  test("an account whose login core refuses gets a red badge with core's reason, and the overview counts it", async () => {
    await s.go("accounts");
    await s.page.getByRole("button", { name: "Add account" }).click();
    const dialog = s.page.getByRole("dialog");
    await dialog.locator("input[name=login]").fill("nobody@sim.test");
    await dialog.locator("input[name=password]").fill("wrong");
    await dialog.getByRole("button", { name: "Save" }).click();
    const row = s.page.locator('tr[data-account="nobody@sim.test"]');
    // A refused login is "login failed", or "cooling down" when the gateway also holds the account out.
    await row.locator(".badge-bad, .badge-warn").waitFor({ timeout: 45_000 });
    expect(await row.locator(".badge").textContent()).toMatch(/^(login failed|cooling down, .+ left)$/);
    const record = (await s.api("/admin/accounts?q=nobody")).items[0];
    expect(record.test_status).toBe("failed");
    expect(record.test_message).not.toBe("");
    expect(await row.textContent()).toContain(record.test_message);
    await s.go("overview");
    await s.page.locator("[data-testid=stat-failed] .stat-value", { hasText: "1" }).waitFor();
    await s.shot("overview-failed-login");
  }, 60_000);

  test("settings: host sync shows its status and 'Sync now' pushes the configuration to the host", async () => {
    await s.go("settings");
    const section = s.page.locator('section[data-group="host"]');
    await section.getByText("Not synced").waitFor();
    expect(await section.textContent()).toContain("prj_console");
    await section.getByRole("button", { name: "Sync now" }).click();
    await section.getByText("In sync").waitFor({ timeout: 30_000 });
    expect(host.env.has("SVC_CONFIG_JSON")).toBe(true);
    expect(host.calls.some((c) => c.method === "POST" && c.path.endsWith("/deployments"))).toBe(true);
    // The token never reaches the page.
    expect(await s.page.content()).not.toContain("host-token-live");
  }, 60_000);
});
