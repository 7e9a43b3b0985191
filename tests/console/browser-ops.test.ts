// The operator pages in Chromium (issue 31), against the compiled binary on its built-in simulator: the request
// log with filters and a request's waterfall, the usage charts, the models page, the audit log after a key is
// disabled from the Keys page, and the overview's traffic — in English and Chinese, light and dark, and at
// phone width, with screenshots in .ci-work/console.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromiumPath } from "../helpers/browser";
import { ConsoleSession } from "../helpers/console-browser";

const HAVE_CHROMIUM = chromiumPath() !== null;
const STEP = 60_000;
const KEY = "sk-ops-console";
// The simulator's own demo account: a managed account, so requests go through the queue, login, session and PoW.
const ACCOUNT = { email: "demo@simulator.local", password: "demo-password" };
let s: ConsoleSession;
const ids: { ok: string[]; bad: string } = { ok: [], bad: "" };

async function chat(model = "core-v4-flash", key = KEY): Promise<Response> {
  return fetch(`${s.gw.url}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "operator pages" }] }),
  });
}

describe.skipIf(!HAVE_CHROMIUM)("operator pages in Chromium", () => {
  beforeAll(async () => {
    s = await ConsoleSession.open({ api_keys: [{ key: KEY, name: "ops-team" }], accounts: [ACCOUNT] });
    for (let i = 0; i < 3; i++) {
      const r = await chat();
      expect(r.status).toBe(200);
      await r.text();
      ids.ok.push(r.headers.get("x-request-id")!);
    }
    const bad = await chat("no-such-model-ops");
    expect(bad.status).toBe(400);
    await bad.text();
    ids.bad = bad.headers.get("x-request-id")!;
    await s.signIn();
  }, 180_000);

  afterAll(async () => {
    await s?.close();
  });

  test(
    "requests: rows, a status filter, and a request's detail with its waterfall, account and attempts",
    async () => {
      await s.go("requests");
      const rows = s.page.locator("[data-testid=request-rows] tbody tr");
      await rows.first().waitFor();
      // The four chat requests, and the console's own sign-in (an admin write).
      for (const id of [...ids.ok, ids.bad]) await s.page.locator(`tr[data-request-id="${id}"]`).waitFor();
      expect(await rows.count()).toBe(5);
      await s.page.locator("select[name=status]").selectOption("4xx");
      await s.page.getByRole("button", { name: "Apply" }).click();
      await s.page.locator(`tr[data-request-id="${ids.bad}"]`).waitFor();
      await s.page.waitForFunction(() => document.querySelectorAll("[data-testid=request-rows] tbody tr").length === 1);
      await s.page.locator("select[name=status]").selectOption("");
      await s.page.getByRole("button", { name: "Apply" }).click();
      await s.page.locator(`tr[data-request-id="${ids.ok[0]}"]`).click();
      const detail = s.page.getByTestId("request-detail");
      await detail.waitFor();
      // Queue, login, session, PoW, core answering, first token, total: one bar each.
      expect(await s.page.locator("[data-testid=waterfall] rect").count()).toBe(7);
      expect(await s.page.getByTestId("detail-account").textContent()).toBe("de***@simulator.local");
      expect(await s.page.getByTestId("detail-attempts").textContent()).toContain("1 accounts, 1 core attempts");
      await s.page.getByTestId("conversation-link").waitFor();
      await s.shot("requests-detail-light-en");
      await s.page.keyboard.press("Escape");
      // A request opened by its address (the id the client saw in X-Request-Id).
      await s.page.goto(`${s.gw.url}/admin#/requests/${ids.bad}`);
      await s.page.getByTestId("request-detail").waitFor();
      await s.page.getByText("model_not_found").first().waitFor();
      await s.page.keyboard.press("Escape");
    },
    STEP,
  );

  test(
    "usage: charts are drawn from the request log, grouped by key",
    async () => {
      await s.go("usage");
      await s.page.getByTestId("chart-requests").waitFor();
      expect(await s.page.locator("[data-testid=chart-requests] rect").count()).toBeGreaterThanOrEqual(1);
      await s.page.locator(".legend").getByText("ops-team").first().waitFor();
      const total = await s.page.locator("[data-testid=usage-rows] tbody tr td:nth-child(3)").allTextContents();
      expect(total.reduce((n, x) => n + Number(x), 0)).toBe(4);
      await s.page.locator("select[name=group]").selectOption("model");
      await s.page.locator(".legend").first().getByText("core-v4-flash").waitFor();
      await s.shot("usage-light-en");
    },
    STEP,
  );

  test(
    "models: the built-in table and a name tried in the box",
    async () => {
      await s.go("models");
      await s.page.locator("[data-testid=builtin-aliases] tbody tr").first().waitFor();
      await s.page.locator("input[name=resolve]").fill("gpt-4o");
      await s.page.getByRole("button", { name: "Resolve" }).click();
      expect(await s.page.getByTestId("resolved").textContent()).toContain("core-v4-flash");
      await s.shot("models-light-en");
    },
    STEP,
  );

  test(
    "keys: disabling a key from its form refuses it (401 key_disabled) and the audit page shows the change",
    async () => {
      await s.go("keys");
      const row = s.page.locator('tr[data-key-name="ops-team"]');
      await row.waitFor();
      expect(await row.getByTestId("key-today").textContent()).toContain("4 requests");
      await row.getByRole("button", { name: "Edit" }).click();
      await s.page.locator("input[name=enabled]").uncheck();
      await s.page.locator("input[name=rpm]").fill("30");
      await s.page.getByRole("button", { name: "Save" }).click();
      await row.getByTestId("key-state").getByText("disabled").waitFor();
      await s.shot("keys-light-en");
      const refused = await chat();
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.code).toBe("key_disabled");
      await s.go("audit");
      const first = s.page.locator("[data-testid=audit-rows] tbody tr").first();
      await first.waitFor();
      expect(await first.textContent()).toContain("enabled");
      expect(await first.textContent()).toContain("requests_per_minute");
      expect(await s.page.locator("[data-testid=audit-rows]").textContent()).not.toContain(KEY);
      await s.shot("audit-light-en");
    },
    STEP,
  );

  test(
    "overview: traffic of the last hour and consistent pool counts",
    async () => {
      await s.go("overview");
      await s.page.waitForFunction(() => Number(document.querySelector("[data-testid=requests-hour]")?.textContent) >= 5);
      expect(await s.page.getByTestId("ttft-hour").textContent()).toMatch(/^\d+ ms \/ \d+ ms$/);
      await s.page.getByTestId("account-inflight").getByText("de***@simulator.local").waitFor();
      const count = async (id: string) => Number(await s.page.getByTestId(`stat-${id}`).locator(".stat-value").textContent());
      expect((await count("available")) + (await count("in-use")) + (await count("cooldown")) + (await count("failed"))).toBe(await count("total"));
      await s.shot("overview-traffic-light-en");
    },
    STEP,
  );

  test(
    "Chinese, dark theme and phone width: the pages render and are captured",
    async () => {
      await s.go("overview");
      await s.page.getByTestId("lang-toggle").click();
      await s.page.getByTestId("theme-toggle").click();
      await s.page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
      for (const [page, heading] of [["requests", "请求"], ["usage", "用量"], ["models", "模型"], ["audit", "审计"], ["overview", "概览"]] as const) {
        await s.go(page);
        await s.page.getByRole("heading", { name: heading, exact: true }).waitFor();
        await s.shot(`${page}-dark-zh`);
      }
      await s.page.setViewportSize({ width: 390, height: 844 });
      for (const page of ["requests", "usage", "audit"]) {
        await s.go(page);
        await s.page.locator("table tbody tr").first().waitFor();
        await s.shot(`${page}-phone`);
      }
      await s.page.setViewportSize({ width: 1280, height: 800 });
      await s.page.getByTestId("lang-toggle").click();
      await s.page.getByTestId("theme-toggle").click();
    },
    STEP,
  );
});
