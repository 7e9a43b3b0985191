// Issue 33 item 5: pass-through traffic (a credential that is not a configured key, sent to core as the caller's
// own token) is counted in /admin/usage under one `passthrough` key; the token itself appears nowhere.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { eventually, startLiveGateway, type LiveGateway } from "../helpers/live-gateway";

const ADMIN = { Authorization: "Bearer live-admin-key" };
const CORE_TOKEN = "callers-own-core-token-9f3e";
let sim: CoreSimulator;
let g: LiveGateway;

beforeAll(async () => {
  // Open: the simulator accepts any token as one of its accounts, as core accepts a caller's valid token.
  sim = await startTestSimulator({ open: true });
  g = await startLiveGateway({ config: { keys: ["sk-managed"], accounts: [{ email: "a@sim.test", password: "pw" }] }, coreUrl: sim.url });
});
afterAll(async () => {
  await g.stop();
  await sim.stop();
});

describe("usage of pass-through traffic", () => {
  test("recorded under `passthrough` beside the managed key, with its tokens", async () => {
    for (const key of [CORE_TOKEN, CORE_TOKEN, "sk-managed"]) {
      const r = await fetch(`${g.url}/v1/chat/completions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "count me" }] }),
      });
      expect(r.status).toBe(200);
      await r.text();
    }
    // A request is counted when its response has ended, which may be just after the client read it.
    expect(await eventually(() => g.lines("request").filter((l) => l.path === "/v1/chat/completions").length === 3)).toBe(true);
    const body: any = await (await fetch(`${g.url}/admin/usage?group_by=key`, { headers: ADMIN })).json();
    const pass = body.rows.find((r: { key: string }) => r.key === "passthrough");
    expect(pass.requests).toBe(2);
    expect(pass.completion_tokens).toBeGreaterThan(0);
    expect(body.rows.find((r: { key: string }) => r.key.startsWith("caller:")).requests).toBe(1);
    expect(JSON.stringify(body)).not.toContain(CORE_TOKEN);
  });
});
