// Issue 32: the account health view in Chromium, against the compiled binary in front of a simulator that bans
// one account: the Accounts page shows why the account is out, the dialog lists its events, and the operator's
// reset brings it back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chromiumPath } from "../helpers/browser";
import { ConsoleSession } from "../helpers/console-browser";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

const HAVE_CHROMIUM = chromiumPath() !== null;
const A = "banned@health-ui.test";
const KEY = "sk-health-ui";

let s: ConsoleSession;
let sim: CoreSimulator;

describe.skipIf(!HAVE_CHROMIUM)("account health in the console", () => {
  beforeAll(async () => {
    const accounts = [{ email: A, password: "pw" }, { email: "ok@health-ui.test", password: "pw" }];
    sim = await startCoreSimulator({ difficulty: 1, accounts });
    s = await ConsoleSession.open({ keys: [KEY], accounts }, { SVC_CORE_BASE_URL: sim.url });
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    await sim?.stop();
  });

  test(
    "a banned-looking account shows its state and class, its events in the dialog, and a reset clears it",
    async () => {
      sim.ban(A);
      for (let i = 0; i < 2; i++) {
        const r = await fetch(`${s.gw.url}/v1/chat/completions`, {
          method: "POST",
          headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
          body: JSON.stringify({ model: "core-v4-flash-nothinking", messages: [{ role: "user", content: `q${i}` }] }),
        });
        expect(r.status).toBe(200);
      }
      expect((await s.api(`/admin/accounts/${A}/health`)).state).toBe("cooling_down");
      await s.signIn();
      await s.go("accounts");
      const badge = s.page.getByTestId("health-badge");
      await badge.waitFor();
      expect(await badge.textContent()).toBe("cooling down · suspected_ban");
      const row = s.page.locator("tr", { hasText: A });
      await row.getByTestId("health-open").click();
      const events = s.page.getByTestId("health-events");
      await events.waitFor();
      expect(await events.textContent()).toContain("user is disabled");
      await s.shot("account-health");
      sim.ban(A, false);
      await s.page.getByTestId("health-reset").click();
      await s.page.getByTestId("health-dialog").getByText("operator", { exact: false }).first().waitFor();
      expect((await s.api(`/admin/accounts/${A}/health`)).state).toBe("healthy");
      await s.page.getByRole("button", { name: "Close" }).click();
      await s.page.getByTestId("health-badge").waitFor({ state: "detached" });
    },
    120_000,
  );

  test(
    "the doctor button shows the checks of the running gateway, a failing account with what to do",
    async () => {
      sim.ban(A);
      await s.go("accounts");
      await s.page.getByTestId("doctor-open").click();
      const summary = s.page.getByTestId("doctor-summary");
      await summary.waitFor({ timeout: 30_000 });
      expect(await summary.textContent()).toBe("Some checks failed");
      const dialog = s.page.getByTestId("doctor-dialog");
      const row = dialog.locator("tr", { hasText: `account ${A}` });
      expect(await row.textContent()).toContain("suspected_ban");
      expect(await row.textContent()).toContain("core's own app");
      expect(await dialog.locator("tr", { hasText: "account ok@health-ui.test" }).textContent()).toContain("login succeeded");
      await s.shot("doctor");
      await s.page.getByRole("button", { name: "Close" }).click();
      sim.ban(A, false);
    },
    60_000,
  );
});
