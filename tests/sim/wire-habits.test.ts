// Exact bytes of the core-upstream §7.17 excerpt shapes as the simulator writes them, determinism under a
// seed (§12.9), the write modes and compression of streamed bodies (§12.4).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Rng } from "../../src/sim/rng";
import { planWrites } from "../../src/sim/transport";
import type { CoreSimulator, ScenarioScript, SimOptions, Step } from "../../src/sim/index";
import { RawCore, startTestSimulator, withSimulator } from "../helpers/sim";

let sim: CoreSimulator;
beforeAll(async () => {
  sim = await startTestSimulator();
});
afterAll(() => sim.stop());

/** Timestamps and fragment ids vary with the clock and the script; the habits under test do not. */
const norm = (s: string) => s.replace(/"(updated_at|inserted_at)":[0-9.]+/g, '"$1":T').replace(/"id":\d+/g, '"id":N');

async function run(steps: Step[], opts: { shape?: "older" | "newer"; search?: boolean } = {}): Promise<string> {
  const c = new RawCore(sim.url);
  await c.login({ email: "a@sim.test", password: "pw" });
  const script: ScenarioScript = { name: "excerpt", shape: opts.shape ?? "newer", rounds: [{ steps }] };
  sim.enqueue({ script });
  return (await c.completion(await c.session(), "x", { thinking: true, search: opts.search })).text();
}

describe("§7.17 excerpts byte for byte", () => {
  test("A: stream head, older snapshot field set, first APPEND then pathless tokens", async () => {
    const body = await run([{ ready: {} }, { update_session: {} }, { snapshot: { think: "We" } }, { think: "", chunk: [" only", " need", " to"] }], { shape: "older", search: true });
    expect(norm(body)).toBe(
      norm(`event: ready
data: {"request_message_id":1,"response_message_id":2,"model_type":"default"}

event: update_session
data: {"updated_at":1775322810.106091}

data: {"v":{"response":{"message_id":2,"parent_id":1,"model":"","role":"ASSISTANT","thinking_enabled":true,"ban_edit":false,"ban_regenerate":false,"status":"WIP","incomplete_message":null,"accumulated_token_usage":0,"files":[],"feedback":null,"inserted_at":1775322810.101244,"search_enabled":true,"fragments":[{"id":2,"type":"THINK","content":"We","elapsed_secs":null,"references":[],"stage_id":1}],"has_pending_fragment":false,"auto_continue":false,"search_triggered":false}}}

data: {"p":"response/fragments/-1/content","o":"APPEND","v":" only"}

data: {"v":" need"}

data: {"v":" to"}

`),
    );
  });

  test("B: newer snapshot field set (no files, no search_triggered, conversation_mode)", async () => {
    const body = await run([{ snapshot: { think: "We" } }]);
    expect(norm(body)).toBe(
      norm(
        `data: {"v":{"response":{"message_id":2,"parent_id":1,"model":"","role":"ASSISTANT","thinking_enabled":true,"ban_edit":false,"ban_regenerate":false,"status":"WIP","incomplete_message":null,"accumulated_token_usage":0,"feedback":null,"inserted_at":1777485078.542825,"search_enabled":false,"fragments":[{"id":2,"type":"THINK","content":"We","elapsed_secs":null,"references":[],"stage_id":1}],"conversation_mode":"DEFAULT","has_pending_fragment":false,"auto_continue":false}}}\n\n`,
      ),
    );
  });

  test("C: elapsed_secs SET, RESPONSE appended, the next patch omits the op (sticky APPEND), markdown and whitespace tokens", async () => {
    const body = await run([
      { ready: {} },
      { snapshot: { think: "We" } },
      { think: "", chunk: [" use", " markdown."] },
      { think_end: { elapsed_secs: 0.765374503 } },
      { answer: "", chunk: ["```", "mark", "down", "\n", "#", " ", "Title", "\n", "```"] },
    ]);
    const tail = body.slice(body.indexOf('data: {"v":" markdown."}'));
    expect(tail).toBe(`data: {"v":" markdown."}

data: {"p":"response/fragments/-1/elapsed_secs","o":"SET","v":0.765374503}

data: {"p":"response/fragments","o":"APPEND","v":[{"id":3,"type":"RESPONSE","content":"\`\`\`","references":[],"stage_id":1}]}

data: {"p":"response/fragments/-1/content","v":"mark"}

data: {"v":"down"}

data: {"v":"\\n"}

data: {"v":"#"}

data: {"v":" "}

data: {"v":"Title"}

data: {"v":"\\n"}

data: {"v":"\`\`\`"}

`);
  });

  test("D/E: TIP with omitted op, usage batch, status SET, finish, update_session, title, close", async () => {
    const body = await run([{ ready: {} }, { snapshot: { answer: "A" } }, { answer: "", chunk: ["."] }, { tip: "" }, { usage: { tokens: 2024 } }, { status: "FINISHED" }, { finish: {} }, { update_session: {} }, { title: "Comparing SSE and WebSocket" }, { close: {} }]);
    expect(norm(body.slice(body.indexOf('data: {"p":"response/fragments/-1/content"')))).toBe(
      norm(`data: {"p":"response/fragments/-1/content","o":"APPEND","v":"."}

data: {"p":"response/fragments","v":[{"id":4,"type":"TIP","content":"本回答由 AI 生成，内容仅供参考，请仔细甄别。","style":"WARNING","hide_on_wip":true}]}

data: {"p":"response","o":"BATCH","v":[{"p":"accumulated_token_usage","v":2024},{"p":"quasi_status","v":"FINISHED"}]}

data: {"p":"response/status","o":"SET","v":"FINISHED"}

event: finish
data: {}

event: update_session
data: {"updated_at":1777485073.9337459}

event: title
data: {"content":"Comparing SSE and WebSocket"}

event: close
data: {"click_behavior":"none","auto_resume":false}

`),
    );
  });

  test("F/G: search phase and reference batches (pending flag, negative indices, omitted ops, pathless batch)", async () => {
    const body = await run(
      [
        { ready: {} },
        { snapshot: { think: "We" } },
        { think_end: { elapsed_secs: 1.426722585 } },
        { search: { queries: ["city weather today", "city forecast april"], results: [[{ url: "https://weather.example/city", title: "City forecast" }], []], keepalive: 1 } },
        { think: "The", stage: 2 },
        { open: [{ search: 0, result: 0 }] },
        { answer: "", chunk: ["Rain", " today"], stage: 3 },
        { cite: { open: 0 } },
        { cite: { search: 1 } },
        { answer: "." },
        { cite: { search: 0 } },
      ],
      { search: true },
    );
    const lines = norm(body)
      .split("\n")
      .filter((l) => l.startsWith("data: ") || l === ": ")
      .slice(2);
    const v = (s: string) => (s.startsWith("data: ") ? s.slice(6) : s);
    expect(lines.map(v).slice(0, 8)).toEqual([
      '{"p":"response/fragments/-1/elapsed_secs","o":"SET","v":1.426722585}',
      '{"p":"response/has_pending_fragment","v":true}',
      expect.stringMatching(/^\{"p":"response","o":"BATCH","v":\[\{"p":"fragments","o":"APPEND","v":\[\{"id":N,"type":"TOOL_SEARCH","status":"WIP","content":null,"queries":\[\{"query":"city weather today"\}\],"results":\[\],"stage_id":1\},.*\]\},\{"p":"has_pending_fragment","o":"SET","v":false\}\]\}$/),
      expect.stringMatching(/^\{"p":"response\/fragments\/-2\/results","o":"SET","v":\[\{"url":"https:\/\/weather.example\/city","title":"City forecast",/),
      '{"p":"response/fragments/-2/status","v":"FINISHED"}',
      ": ",
      '{"p":"response/fragments/-1/results","o":"SET","v":[]}',
      '{"p":"response/fragments/-1/status","v":"FINISHED"}',
    ]);
    const g = lines.map(v).slice(lines.findIndex((l) => l.includes('"type":"RESPONSE"')));
    expect(g).toEqual([
      '{"p":"response/fragments","o":"APPEND","v":[{"id":N,"type":"RESPONSE","content":"Rain","references":[],"stage_id":3}]}',
      '{"p":"response/fragments/-1/content","v":" today"}',
      '{"p":"response/fragments/-1","o":"BATCH","v":[{"p":"content","o":"APPEND","v":"[reference:0]"},{"p":"references","o":"SET","v":[{"id":N,"type":"TOOL_OPEN"}]}]}',
      '{"v":[{"p":"content","o":"APPEND","v":"[reference:1]"},{"p":"references","v":[{"id":N,"type":"TOOL_SEARCH"}]}]}',
      '{"p":"response/fragments/-1/content","o":"APPEND","v":"."}',
      '{"p":"response/fragments/-1","o":"BATCH","v":[{"p":"content","o":"APPEND","v":"[reference:2]"},{"p":"references","v":[{"id":N,"type":"TOOL_SEARCH"}]}]}',
    ]);
    expect(body).toContain('{"p":"response/has_pending_fragment","v":true}\n\ndata: {"p":"response","o":"BATCH","v":[{"p":"fragments","o":"APPEND","v":[{"id":');
    expect(body).toMatch(/"type":"TOOL_OPEN".*\n\ndata: \{"p":"response\/fragments\/-1\/status","o":"SET","v":"FINISHED"\}/);
  });

  test("H: the content-filter tail, a pathless batch continuing on `response`", async () => {
    const body = await run([{ ready: {} }, { snapshot: { answer: "A" } }, { answer: "", chunk: [","] }, { tip: "" }, { usage: { tokens: 1269 } }, { keepalive: 1 }, { content_filter: {} }, { finish: {} }, { update_session: {} }, { close: {} }]);
    expect(norm(body.slice(body.indexOf('data: {"p":"response","o":"BATCH"')))).toBe(
      norm(`data: {"p":"response","o":"BATCH","v":[{"p":"accumulated_token_usage","v":1269},{"p":"quasi_status","v":"FINISHED"}]}

: 

data: {"v":[{"p":"ban_regenerate","v":true},{"p":"status","v":"CONTENT_FILTER"},{"p":"fragments","v":[{"id":38,"type":"TEMPLATE_RESPONSE","content":"你好，这个问题我暂时无法回答，让我们换个话题再聊聊吧。"}]},{"p":"quasi_status","v":"CONTENT_FILTER"}]}

event: finish
data: {}

event: update_session
data: {"updated_at":1775320133.058034}

event: close
data: {"click_behavior":"none","auto_resume":false}

`),
    );
  });

  test("I: INCOMPLETE tail with the status op omitted after the elapsed_secs SET (incomplete-continue phase=thinking)", async () => {
    const c = new RawCore(sim.url);
    await c.login({ email: "a@sim.test", password: "pw" });
    const body = await (await c.completion(await c.session(), "[[sim:incomplete-continue phase=thinking]] x", { thinking: true })).text();
    expect(body).toMatch(
      /data: \{"p":"response","o":"BATCH","v":\[\{"p":"accumulated_token_usage","v":\d+\},\{"p":"quasi_status","v":"INCOMPLETE"\}\]\}\n\ndata: \{"p":"response\/fragments\/-1\/elapsed_secs","o":"SET","v":692.782077986\}\n\ndata: \{"p":"response\/status","v":"INCOMPLETE"\}\n\nevent: finish\ndata: \{\}\n\nevent: update_session\n/,
    );
  });
});

describe("determinism", () => {
  async function session(opts: SimOptions): Promise<string[]> {
    return withSimulator(opts, async (s) => {
      const c = new RawCore(s.url);
      await c.login({ email: "a@sim.test", password: "pw" });
      const sid = await c.session();
      const out = [c.token, sid];
      out.push(await (await c.completion(sid, "Weather?", { thinking: true, search: true })).text());
      out.push(await (await c.upload("f.txt", "file body")).text());
      const s2 = await c.session();
      s.enqueue({ scenario: "incomplete-continue", params: { rounds: 1 } });
      out.push(await (await c.completion(s2, "go", { thinking: true })).text());
      out.push(await (await c.continue(s2, 2)).text());
      return out;
    });
  }

  test("same seed and request sequence → byte-identical answers; another seed differs", async () => {
    const a = await session({ seed: 7, write: "random" });
    const b = await session({ seed: 7 });
    const d = await session({ seed: 8 });
    expect(a).toEqual(b);
    expect(d[0]).not.toBe(a[0]);
    expect(d[1]).not.toBe(a[1]);
  });

  test("hard reset replays the same answers", async () => {
    const first = await session({ seed: 9 });
    await withSimulator({ seed: 9 }, async (s) => {
      const run = async () => {
        const c = new RawCore(s.url);
        await c.login({ email: "a@sim.test", password: "pw" });
        return [c.token, await (await c.completion(await c.session(), "Weather?", { thinking: true, search: true })).text()];
      };
      const x = await run();
      s.reset({ hard: true });
      expect(await run()).toEqual(x);
      expect(x[0]).toBe(first[0]!);
    });
  });
});

describe("write modes and compression", () => {
  test("planWrites: event keeps pieces, coalesce merges, byte splits to single bytes, random cuts anywhere", () => {
    const enc = new TextEncoder();
    const pieces = [enc.encode(`data: {"v":"${"é中".repeat(40)}"}\n\n`), enc.encode('data: {"v":"b"}\n\n'), { sleep: 1 }, enc.encode("data: {}\n\n")];
    expect(planWrites(pieces, "event", new Rng("x"))).toBe(pieces);
    const co = planWrites(pieces, "coalesce", new Rng("x"));
    expect(co).toHaveLength(3);
    const by = planWrites(pieces, "byte", new Rng("x"));
    expect(by.filter((p) => p instanceof Uint8Array).every((p) => (p as Uint8Array).length === 1)).toBe(true);
    const r1 = planWrites(pieces, "random", new Rng("seed"));
    const r2 = planWrites(pieces, "random", new Rng("seed"));
    expect(r1.map((p) => (p instanceof Uint8Array ? p.length : -1))).toEqual(r2.map((p) => (p instanceof Uint8Array ? p.length : -1)));
    expect(r1.length).toBeGreaterThan(co.length);
  });

  test("every write mode and compression delivers the same bytes", async () => {
    const bodies: string[] = [];
    const chunkCounts: Record<string, number> = {};
    for (const [write, compression] of [
      ["event", "none"],
      ["coalesce", "none"],
      ["random", "none"],
      ["byte", "none"],
      ["event", "gzip"],
      ["random", "br"],
    ] as const) {
      sim.reset({ hard: true });
      sim.set({ write, compression });
      const c = new RawCore(sim.url);
      await c.login({ email: "a@sim.test", password: "pw" });
      const r = await c.completion(await c.session(), "modes", { thinking: true });
      expect(r.headers.get("content-encoding")).toBe(compression === "none" ? null : compression);
      const reader = r.body!.getReader();
      let n = 0;
      const parts: Uint8Array[] = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        n++;
        parts.push(value);
      }
      chunkCounts[`${write}/${compression}`] = n;
      bodies.push(Buffer.concat(parts).toString("utf8"));
    }
    sim.reset({ hard: true });
    expect(new Set(bodies).size).toBe(1);
    expect(chunkCounts["byte/none"]!).toBeGreaterThan(chunkCounts["coalesce/none"]!);
  });
});
