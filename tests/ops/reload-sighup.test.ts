// Issue 30, the headline: a real SIGHUP to a real gateway process (bun src/main.ts). Start with
// {"keys":["k1","k2"]}, add k3 to the file, SIGHUP → k1, k2 and k3 all authenticate and the file is byte for
// byte what the operator wrote. A blank file is refused and changes nothing; a stream whose account leaves
// the file keeps that account to its end.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CoreSimulator } from "../../src/sim/index";
import { startTestSimulator } from "../helpers/sim";
import { freePort } from "../helpers/binary";
import { eventually } from "../helpers/live-gateway";
import { scratchDir } from "../helpers/scratch";

const MAIN = join(resolve(import.meta.dir, "../.."), "src/main.ts");
const A = { email: "a@sim.test", password: "pw" };
const B = { mobile: "13800138000", password: "pw2" };
let sim: CoreSimulator;
let path: string;
let port: number;
let proc: ReturnType<typeof Bun.spawn>;
let out = "";

/** Log lines with this msg, parsed. */
const lines = (msg: string) =>
  out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);

/** Sends SIGHUP and waits for the n-th outcome line (reloaded or not). */
async function hup(): Promise<Record<string, unknown>> {
  const seen = lines("configuration reloaded").length + lines("configuration not reloaded").length;
  proc.kill("SIGHUP");
  expect(await eventually(() => lines("configuration reloaded").length + lines("configuration not reloaded").length > seen, 10_000)).toBe(true);
  return [...lines("configuration reloaded"), ...lines("configuration not reloaded")].sort((x, y) => String(x.ts).localeCompare(String(y.ts))).at(-1)!;
}

function chat(key: string, content = "hello", stream = false): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", stream, messages: [{ role: "user", content }] }),
  });
}

async function status(key: string): Promise<number> {
  const r = await chat(key);
  await r.arrayBuffer();
  return r.status;
}

beforeAll(async () => {
  // Pass-through is off for unknown tokens only when the simulator refuses them: an unknown key must be a 401.
  sim = await startTestSimulator();
  path = join(scratchDir("svc-sighup-"), "config.json");
  writeFileSync(path, JSON.stringify({ keys: ["k1", "k2"], accounts: [A] }));
  port = await freePort();
  proc = Bun.spawn(["bun", MAIN], {
    env: { PATH: process.env.PATH ?? "", HOME: scratchDir("svc-sighup-home-"), PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "sighup-admin-key", SVC_CONFIG_PATH: path, SVC_CORE_BASE_URL: sim.url, LOG_LEVEL: "info" },
    stdout: "pipe",
    stderr: "pipe",
  });
  void (async () => {
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out += new TextDecoder().decode(value);
    }
  })();
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {}
    await Bun.sleep(50);
  }
}, 30_000);

afterAll(async () => {
  proc.kill("SIGTERM");
  await proc.exited;
  await sim.stop();
});

describe("SIGHUP to a running gateway", () => {
  test('{"keys":["k1","k2"]} + k3 in the file → k1, k2, k3 all authenticate; the file is untouched', async () => {
    // The first request logs A in, and the gateway writes its token into the file (an edit: the operator's
    // `keys`-only form stays). The operator then lists k1, k2 in both forms and adds k3 to `keys` only — what
    // dropped k1 and k2 before.
    expect(await status("k1")).toBe(200);
    const current = JSON.parse(readFileSync(path, "utf8")) as { keys: string[]; api_keys?: unknown[]; accounts: { token?: string }[] };
    expect(current.accounts[0]!.token).toBeString();
    expect(current.api_keys).toBeUndefined();
    const text = JSON.stringify({ ...current, api_keys: [{ key: "k1" }, { key: "k2" }], keys: ["k1", "k2", "k3"] }, null, 4);
    writeFileSync(path, text);
    const outcome = await hup();
    expect(outcome.msg).toBe("configuration reloaded");
    expect(outcome.keys).toBe(3);
    expect([await status("k1"), await status("k2"), await status("k3")]).toEqual([200, 200, 200]);
    expect(readFileSync(path, "utf8")).toBe(text);
  }, 30_000);

  test("the same with an api_keys-only file; a key left out no longer authenticates", async () => {
    const { accounts } = JSON.parse(readFileSync(path, "utf8")) as { accounts: unknown[] };
    const text = JSON.stringify({ api_keys: [{ key: "k1", name: "one" }, { key: "k3", name: "three" }, { key: "k4", name: "four" }], accounts });
    writeFileSync(path, text);
    expect((await hup()).msg).toBe("configuration reloaded");
    expect([await status("k1"), await status("k3"), await status("k4")]).toEqual([200, 200, 200]);
    // k2 is no managed key any more: it goes to core as a pass-through token, which the simulator refuses.
    expect(await status("k2")).toBe(401);
    const view = (await (await fetch(`http://127.0.0.1:${port}/admin/config`, { headers: { Authorization: "Bearer sighup-admin-key" } })).json()) as { api_keys: { key: string; name: string }[] };
    expect(view.api_keys.map((r) => `${r.key}:${r.name}`)).toEqual(["k1:one", "k3:three", "k4:four"]);
    expect(readFileSync(path, "utf8")).toBe(text);
  }, 30_000);

  test("a 0-byte file is refused with the reason in the log; every key keeps working; the file stays 0 bytes", async () => {
    writeFileSync(path, "");
    const outcome = await hup();
    expect(outcome.msg).toBe("configuration not reloaded");
    expect(String(outcome.reason)).toContain("is blank");
    expect([await status("k1"), await status("k3"), await status("k4")]).toEqual([200, 200, 200]);
    expect(readFileSync(path, "utf8")).toBe("");
  }, 30_000);

  test("a stream in flight keeps its account when the reload removes that account", async () => {
    const stream = await chat("k1", `[[sim:slow-tokens first_token_ms=10 delay_ms=30]] ${"long ".repeat(30)}`, true);
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    // A is gone from the file, B takes its place.
    writeFileSync(path, JSON.stringify({ keys: ["k1", "k3", "k4"], accounts: [B] }));
    expect((await hup()).msg).toBe("configuration reloaded");
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest.trimEnd()).toEndWith("data: [DONE]");
    expect(rest).not.toContain('"error"');
    // New requests run on B, and nothing is left held.
    expect(await status("k1")).toBe(200);
    const q = (await (await fetch(`http://127.0.0.1:${port}/admin/queue/status`, { headers: { Authorization: "Bearer sighup-admin-key" } })).json()) as { in_use: number };
    expect(q.in_use).toBe(0);
  }, 30_000);
});
