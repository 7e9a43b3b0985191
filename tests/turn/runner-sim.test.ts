// The pipeline run against the simulator: account switching (D8.10), empty-output retry (D9.6), continue
// rounds joined without loss or duplication, the current-input file (svcml-and-prompts.md §3.11).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";
import type { Config } from "../../src/config/schema";

let sim: CoreSimulator;
const accounts = [
  { email: "a@sim.test", password: "pw-a" },
  { email: "b@sim.test", password: "pw-b" },
];
beforeAll(async () => {
  sim = await startCoreSimulator({ difficulty: 1, accounts });
});
afterAll(() => sim.stop());
beforeEach(() => sim.reset());

const app = (extra: Config = {}) => makeTestApp({ config: { keys: ["sk-run"], accounts, ...extra }, env: { SVC_CORE_BASE_URL: sim.url } });
const ask = (t: TestApp, content: string | { role: string; content: string }[], extra: Record<string, unknown> = {}) =>
  t.req("/v1/chat/completions", {
    method: "POST",
    headers: { Authorization: "Bearer sk-run" },
    json: { model: "core-v4-flash-nothinking", messages: typeof content === "string" ? [{ role: "user", content }] : content, ...extra },
  });

describe("pipeline run against the simulator", () => {
  test("HTTP 5xx three times on one account: the request moves to another account and succeeds", async () => {
    const t = await app();
    sim.enqueue({ scenario: "http-error", params: { status: 502, times: 3, tag: "failover" }, times: 4 });
    const r = await ask(t, "fail over please");
    expect(r.status).toBe(200);
    expect(t.built.ctx.chatHistory.items()[0]!.account_id).toBe("b@sim.test");
  });

  test("a busy session is retried and the answer still comes", async () => {
    const t = await app();
    sim.enqueue({ scenario: "error-busy-json", params: { times: 1, tag: "busy1" }, times: 2 });
    const r = await ask(t, "busy then fine");
    expect(r.status).toBe(200);
  });

  test("empty output twice → 503 upstream_empty_output after one retry on another account", async () => {
    const t = await app();
    const before = sim.counters.completions;
    sim.enqueue({ scenario: "empty-output", times: 2 });
    const r = await ask(t, "say nothing");
    expect(r.status).toBe(503);
    expect((await r.json()).error.code).toBe("upstream_empty_output");
    expect(sim.counters.completions - before).toBe(2);
  });

  test("continue rounds are joined: every character once, in order", async () => {
    const t = await app();
    sim.enqueue({ scenario: "incomplete-continue", params: { rounds: 2, unseen: "xy" } });
    const r = await ask(t, "long answer");
    const text = (await r.json()).choices[0].message.content as string;
    expect(text).toBe("Part one of the answer xyand part 2 xyand the end.");
    expect(sim.requests({ path: "/api/v0/chat/continue" }).length).toBeGreaterThanOrEqual(2);
  });

  test("streamed continue rounds give the same text", async () => {
    const t = await app();
    sim.enqueue({ scenario: "incomplete-continue", params: { rounds: 1, unseen: "zz" } });
    const r = await ask(t, "long streamed", { stream: true });
    const body = await r.text();
    const text = body
      .split("\n\n")
      .filter((b) => b.startsWith("data: {"))
      .map((b) => JSON.parse(b.slice(6)).choices?.[0]?.delta?.content ?? "")
      .join("");
    expect(text).toBe("Part one of the answer zzand the end.");
  });

  test("current_input_file: a long conversation goes to core as a file, the prompt keeps the live tail", async () => {
    const t = await app({ current_input_file: { enabled: true, min_chars: 200 } });
    const uploads = sim.counters.uploads;
    const history = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "x".repeat(300) },
      { role: "assistant", content: "ok" },
      { role: "user", content: "[[sim:echo]] the latest request" },
    ];
    const r = await ask(t, history);
    const prompt = (await r.json()).choices[0].message.content as string;
    expect(sim.counters.uploads).toBe(uploads + 1);
    expect(prompt).toContain("conversation-context.txt");
    expect(prompt).toContain("the latest request");
    expect(prompt).not.toContain("x".repeat(300));
    const completion = sim.requests({ path: "/api/v0/chat/completion" }).at(-1)!;
    expect(completion.body.ref_file_ids).toHaveLength(1);
  });

  test("input too long inline: retried once in file mode, then 400 context_length_exceeded", async () => {
    const t = await app();
    const uploads = sim.counters.uploads;
    const r = await ask(t, "[[sim:error-input-too-long]] a very long question");
    expect(r.status).toBe(400);
    expect((await r.json()).error.code).toBe("context_length_exceeded");
    expect(sim.counters.uploads).toBe(uploads + 1);
  });

  test("a content filter after some text ends with finish_reason content_filter and never shows the template", async () => {
    const t = await app();
    sim.enqueue({ scenario: "content-filter" });
    const r = await ask(t, "something sensitive");
    const body = await r.json();
    expect(body.choices[0].finish_reason).toBe("content_filter");
    expect(JSON.stringify(body)).not.toContain("换个话题");
  });
});
