// Every built-in scenario over real sockets, read the way the gateway reads it (SSE decoder + patch
// reducer): well-formed framing, the scripted outcome, continue rounds that de-duplicate by fragment id,
// and the exact wire habits of the core-upstream §7.17 excerpts (sticky op omission, pathless tokens and
// batches, the INCOMPLETE and content-filter tails).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { CoreSimulator, ScenarioScript } from "../../src/sim/index";
import { dataPayloads, RawCore, startTestSimulator } from "../helpers/sim";
import { reduceRounds, stripMarkers } from "./reduce";

let sim: CoreSimulator;
let c: RawCore;
beforeAll(async () => {
  sim = await startTestSimulator();
  c = new RawCore(sim.url);
  await c.login({ email: "a@sim.test", password: "pw" });
});
beforeEach(() => sim.reset());
afterAll(() => sim.stop());

/** Plays a completion and up to `continues` continue rounds; returns each round's raw body. */
async function play(prompt: string, opts: { thinking?: boolean; search?: boolean; continues?: number } = {}): Promise<string[]> {
  const s = await c.session();
  const bodies = [await (await c.completion(s, prompt, { thinking: opts.thinking ?? true, search: opts.search })).text()];
  for (let i = 0; i < (opts.continues ?? 0); i++) bodies.push(await (await c.continue(s, 2)).text());
  return bodies;
}

/** SSE framing of core: only `event:`, `data: ` and `: ` lines, blocks ended by a blank line. */
function expectWellFormed(body: string): void {
  expect(body.endsWith("\n\n")).toBe(true);
  for (const block of body.slice(0, -2).split("\n\n")) {
    const lines = block.split("\n");
    if (lines[0] === ": ") {
      expect(lines).toEqual([": "]);
      continue;
    }
    const dataLines = lines.filter((l) => l.startsWith("data: "));
    expect(dataLines).toHaveLength(1);
    expect(lines.length === 1 || (lines.length === 2 && lines[0]!.startsWith("event: "))).toBe(true);
    const json = dataLines[0]!.slice(6);
    if (json !== "[DONE]") expect(() => JSON.parse(json)).not.toThrow();
  }
}

const STREAMING: [string, Partial<{ status: string; answer: string; thinking: boolean; continues: number; filter: boolean; search: boolean }>][] = [
  ["thinking-answer", { status: "FINISHED" }],
  ["thinking-answer-tip", { status: "FINISHED" }],
  ["no-thinking", { status: "FINISHED" }],
  ["only-thinking", { status: "FINISHED", answer: "" }],
  ["search-references", { status: "FINISHED", search: true }],
  ["content-filter", { status: "CONTENT_FILTER", filter: true }],
  ["content-filter-early", { status: "CONTENT_FILTER", answer: "", filter: true }],
  ["refusal-sentence", { status: "FINISHED" }],
  ["leaked-marker", { status: "FINISHED" }],
  ["incomplete-continue", { status: "FINISHED", continues: 1 }],
  ["incomplete-forever", { status: "INCOMPLETE", continues: 3 }],
  ["empty-output", { status: "FINISHED", answer: "" }],
  ["keepalive-heavy", { status: "FINISHED" }],
  ["tiny-chunks", { status: "FINISHED" }],
  ["eof-after-status", { status: "FINISHED" }],
  ["eof-no-status", { status: "WIP" }],
  ["auto-continue", { status: "WIP", answer: "" }],
  ["tool-call", { status: "FINISHED" }],
];

describe("built-in scenarios", () => {
  for (const [id, want] of STREAMING) {
    test(`${id}: well-formed SSE and the scripted outcome through the reducer`, async () => {
      const bodies = await play(`[[sim:${id}]] Please answer briefly`, { continues: want.continues, search: want.search });
      for (const b of bodies) {
        expectWellFormed(b);
        expect(b.startsWith("event: ready\n")).toBe(true);
        expect(b).not.toContain("[DONE]");
      }
      const r = reduceRounds(bodies);
      expect(r.status).toBe(want.status!);
      if (want.answer !== undefined) expect(r.answer).toBe(want.answer);
      else if (!want.filter) expect(stripMarkers(r.answer).length).toBeGreaterThan(0);
      expect(r.events.filter((e) => e === "ready")).toHaveLength(bodies.length);
      if (want.filter) expect(JSON.stringify(r.response!.fragments)).toContain("TEMPLATE_RESPONSE");
    });
  }

  test("search-references: markers resolve through references to TOOL_OPEN / TOOL_SEARCH; the visible text is the demo answer", async () => {
    const [body] = await play("Weather in the city?", { search: true });
    const r = reduceRounds([body!]);
    const resp = (r.response!.fragments as any[]).find((f) => f.type === "RESPONSE");
    expect(resp.content.match(/\[reference:\d+\]/g)).toEqual(["[reference:0]", "[reference:1]", "[reference:2]"]);
    expect(resp.references.map((x: any) => x.type)).toEqual(["TOOL_OPEN", "TOOL_SEARCH", "TOOL_OPEN"]);
    expect(stripMarkers(r.answer)).toBe('You said: "Weather in the city?". This answer comes from the core simulator.');
    expect((r.response!.fragments as any[]).filter((f) => f.type === "TOOL_SEARCH").every((f) => f.status === "FINISHED" && f.results.length > 0)).toBe(true);
  });

  test("incomplete-continue: the continue snapshot is the reduced message plus `unseen`, carries usage, and nothing is emitted twice", async () => {
    const bodies = await play("[[sim:incomplete-continue rounds=2 unseen=QZ]] go", { continues: 2 });
    const round0 = reduceRounds([bodies[0]!]);
    const snap = dataPayloads(bodies[1]!).find((p) => p?.v?.response)!.v.response;
    const expected = structuredClone(round0.response!.fragments) as any[];
    expected.at(-1).content += "QZ";
    expect(snap.fragments).toEqual(expected);
    expect(snap.accumulated_token_usage).toBe(round0.usage as number);
    expect(snap.status).toBe("WIP");
    expect(bodies[1]!).not.toContain("event: title");
    const all = reduceRounds(bodies);
    expect(all.answer).toBe("Part one of the answer QZand part 2 QZand the end.");
  });

  test("incomplete-continue phase=thinking: the final round appends a RESPONSE with stage_id 0", async () => {
    const bodies = await play("[[sim:incomplete-continue phase=thinking]] go", { continues: 1 });
    const r = reduceRounds(bodies);
    expect(r.status).toBe("FINISHED");
    expect((r.response!.fragments as any[]).find((f) => f.type === "RESPONSE").stage_id).toBe(0);
    expect(r.answer).toBe("The answer.");
  });

  test("legacy-shapes: no snapshot, content and thinking on their own paths, an object value and a [DONE] line", async () => {
    const [body] = await play("[[sim:legacy-shapes object_text=!]] hi");
    expect(body).toContain('data: {"p":"response/thinking_content","v":');
    expect(body).toContain('data: {"p":"response/content","v":{"text":"!"}}');
    expect(body!.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(body).not.toContain('"model_type"');
  });

  test("error scenarios: input too long, error key, code content_filter, busy as an SSE line", async () => {
    expect((await play("[[sim:error-input-too-long]] x"))[0]).toContain(
      'data: {"type":"error","content":"内容超长，请删减后再试","clear_response":true,"finish_reason":"input_exceeds_limit"}\n\n',
    );
    expect((await play("[[sim:error-key value=boom]] x"))[0]!.endsWith('data: {"error":"boom"}\n\n')).toBe(true);
    expect((await play("[[sim:error-code-content-filter]] x"))[0]!.endsWith('data: {"code":"content_filter"}\n\n')).toBe(true);
    expect((await play("[[sim:error-busy-sse times=1 tag=t1]] x"))[0]).toBe('data: {"type":"error","content":"有消息正在生成，请稍后再试"}\n\n');
    // The same directive again: its one failure is used up, the default answer follows.
    expect((await play("[[sim:error-busy-sse times=1 tag=t1]] x"))[0]).toContain("event: ready");
  });

  test("non-stream answers: busy JSON, invalid ref file, HTTP errors with times/then, 429, auth-expired", async () => {
    const s = await c.session();
    sim.enqueue({ scenario: "error-busy-json" });
    expect(await (await c.completion(s, "x")).json()).toEqual({ msg: "有消息正在生成，请稍后再试" });
    sim.enqueue({ scenario: "error-invalid-ref-file" });
    expect((await (await c.completion(s, "x")).json()).data.biz_code).toBe(9);
    sim.enqueue({ scenario: "http-error", params: { status: 503, times: 2, then: "no-thinking" }, times: 3 });
    expect((await c.completion(s, "x")).status).toBe(503);
    expect((await c.completion(s, "x")).status).toBe(503);
    const third = await (await c.completion(s, "x", { thinking: true })).text();
    expect(reduceRounds([third]).thinking).toBe("");
    // The third call streamed a message, so the next turn in that session would need parent 2.
    const s2 = await c.session();
    sim.enqueue({ scenario: "http-429" });
    expect((await c.completion(s2, "x")).status).toBe(429);
    sim.set({ expiryForm: "code40003" });
    sim.enqueue({ scenario: "auth-expired" });
    expect((await (await c.completion(s2, "x")).json()).code).toBe(40003);
  });

  test("abrupt endings: eof-before-output and eof-mid-answer reset the connection", async () => {
    for (const id of ["eof-before-output", "eof-mid-answer"]) {
      const r = await c.completion(await c.session(), `[[sim:${id}]] x`);
      let text = "";
      let failed = false;
      try {
        const reader = r.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += new TextDecoder().decode(value);
        }
      } catch {
        failed = true;
      }
      expect(failed).toBe(true);
      expect(text.startsWith("event: ready")).toBe(true);
    }
  });

  test("huge-chunks: a 2 MiB token on one data line and a 60 000-character continue snapshot", async () => {
    const bodies = await play("[[sim:huge-chunks]] x", { continues: 1 });
    const longest = Math.max(...bodies[1]!.split("\n").map((l) => l.length));
    expect(longest).toBeGreaterThan(2 * 1024 * 1024);
    const snap = dataPayloads(bodies[1]!).find((p) => p?.v?.response)!.v.response;
    expect(snap.fragments[0].content.length).toBe(60_002);
    expect(reduceRounds(bodies).answer.length).toBe(2 * 1024 * 1024);
  });

  test("slow-tokens and stall wait in real time; keep-alives fill a slow first token", async () => {
    const t0 = performance.now();
    const [body] = await play("[[sim:slow-tokens first_token_ms=120 keepalive_ms=50 delay_ms=0]] x");
    expect(performance.now() - t0).toBeGreaterThanOrEqual(100);
    expect(body!.split(": \n\n").length - 1).toBeGreaterThanOrEqual(2);
    const t1 = performance.now();
    const [stalled] = await play("[[sim:stall ms=150]] x");
    expect(performance.now() - t1).toBeGreaterThanOrEqual(140);
    expect(stalled).not.toContain(": \n\n");
  });

  test("slow-tokens snapshot_first: the (empty) snapshot comes before the silence, the answer after it", async () => {
    const [body] = await play("[[sim:slow-tokens first_token_ms=50 keepalive_ms=1000 delay_ms=0 snapshot_first=true answer=svclatetoken]] x");
    const snapshotAt = body!.indexOf('"fragments"');
    expect(snapshotAt).toBeGreaterThan(0);
    expect(body!.indexOf("svclatetoken")).toBeGreaterThan(snapshotAt);
    expect(reduceRounds([body!]).answer).toBe("svclatetoken");
  });
});

describe("selection", () => {
  test("the queue wins over directives, matches on flags, and is used `times` times; continue follows the same scenario", async () => {
    sim.enqueue({ scenario: "empty-output", match: { thinking_enabled: false }, times: 2 });
    const thinking = await play("[[sim:no-thinking]] a", { thinking: true });
    expect(reduceRounds(thinking).thinking).toBe("");
    const a = await play("[[sim:no-thinking]] a", { thinking: false });
    const b = await play("b", { thinking: false });
    expect(reduceRounds(a).answer).toBe("");
    expect(reduceRounds(b).answer).toBe("");
    expect(reduceRounds(await play("c", { thinking: false })).answer).not.toBe("");
    expect(sim.requests({ path: "/api/v0/chat/completion" }).map((r) => r.scenario)).toEqual(["no-thinking", "empty-output", "empty-output", "no-thinking"]);
  });

  test("prompt_includes: an entry answers only a prompt holding all its strings, and waits for one", async () => {
    sim.enqueue({ scenario: "empty-output", match: { prompt_includes: ["svc-step", "main prompt"] } });
    expect(reduceRounds(await play("svc-step, a side request", { thinking: false })).answer).not.toBe("");
    expect(reduceRounds(await play("the main prompt without the marker", { thinking: false })).answer).not.toBe("");
    expect(reduceRounds(await play("the main prompt: svc-step", { thinking: false })).answer).toBe("");
    expect(sim.requests({ path: "/api/v0/chat/completion" }).map((r) => r.scenario)).toEqual(["no-thinking", "no-thinking", "empty-output"]);
  });

  test("a full script can be queued; its rounds answer the completion and the continue", async () => {
    const script: ScenarioScript = {
      name: "custom",
      rounds: [
        { steps: [{ ready: {} }, { snapshot: { answer: "one" } }, { usage: { tokens: 5, quasi: "INCOMPLETE" } }, { status: "INCOMPLETE" }] },
        { unseen: "!", steps: [{ ready: {} }, { snapshot: {} }, { answer: " two" }, { usage: { tokens: 9 } }, { status: "FINISHED" }] },
      ],
    };
    sim.enqueue({ script });
    const r = reduceRounds(await play("x", { continues: 1 }));
    expect(r.answer).toBe("one! two");
    expect(r.usage).toBe(9);
  });

  test("defaults by flags: search → search-references, thinking → thinking-answer-tip, else no-thinking", async () => {
    await play("q", { search: true });
    await play("q", { thinking: true });
    await play("q", { thinking: false });
    expect(sim.requests({ path: "/api/v0/chat/completion" }).map((r) => r.scenario)).toEqual(["search-references", "thinking-answer-tip", "no-thinking"]);
  });

  test("a second turn in a session gets parent_message_id checks and ids 3/4", async () => {
    const s = await c.session();
    await (await c.completion(s, "first")).text();
    expect((await c.completion(s, "second")).status).toBe(400);
    const body = await (await c.completion(s, "second", { parent: 2 })).text();
    expect(body.split("\n")[1]).toBe('data: {"request_message_id":3,"response_message_id":4,"model_type":"default"}');
  });
});

describe("busy sessions", () => {
  test("a completion on a streaming session is busy (json form, then sse form); busyTailMs keeps it busy after EOF", async () => {
    const s = await c.session();
    const first = await c.completion(s, "[[sim:slow-tokens delay_ms=20 first_token_ms=0]] slow");
    expect(await (await c.completion(s, "again", { parent: 2 })).json()).toEqual({ msg: "有消息正在生成，请稍后再试" });
    sim.set({ busyForm: "sse" });
    expect(await (await c.completion(s, "again", { parent: 2 })).text()).toBe('data: {"type":"error","content":"有消息正在生成，请稍后再试"}\n\n');
    await first.text();
    sim.set({ busyTailMs: 200, busyForm: "json" });
    const s2 = await c.session();
    await (await c.completion(s2, "quick")).text();
    expect(await (await c.completion(s2, "again", { parent: 2 })).json()).toEqual({ msg: "有消息正在生成，请稍后再试" });
    expect(sim.counters.busy_rejections).toBe(3);
  });
});
