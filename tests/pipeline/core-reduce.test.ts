// coreReduce (core-upstream §7.4–§7.16) over sseDecode, with every stream fed whole, one byte at a time and in
// random splits (several seeds), which must all give the same events.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { runTransform } from "../helpers/chunking";
import { bodyOfRounds, READY, reduceBytes, SPLITS, summarise, type Reduced } from "./core-body";
import { CoreReducer, type ReduceOptions } from "../../src/pipeline/core-reduce";
import { coreReduce } from "../helpers/stages";
import { SseDecoder } from "../../src/core/sse";
import { RoundTracker } from "../../src/core/round-tracker";
import type { CoreEvent } from "../../src/pipeline/types";

const enc = new TextEncoder();
const vectors = loadVectors("patch-reducer.json").vectors as any[];
const ON = { thinkingEnabled: true, stripReferenceMarkers: false };
const STRIP = { thinkingEnabled: true, stripReferenceMarkers: true };

/** Runs a body given as text through every chunking and checks that all give identical events. */
async function reduceAll(body: string | Uint8Array, opts: ReduceOptions = ON): Promise<Reduced> {
  const bytes = typeof body === "string" ? enc.encode(body) : body;
  let first: Reduced | undefined;
  for (const [label, split] of SPLITS) {
    const r = await reduceBytes(split(bytes), opts);
    if (!first) first = r;
    else expect([label, summarise(r.events).thinking, r.answer, r.end]).toEqual([label, first.thinking, first.answer, first.end]);
  }
  return first!;
}

function expectedAnswer(v: any, strip: boolean): string {
  let a = v.expected_emitted.answer as string;
  if (strip) return a.replace(/\[reference:\s*\d+\]/gi, "");
  for (const [n, url] of Object.entries(v.expected_reference_links ?? {})) a = a.replace(`[reference:${n}]`, `[${n}](${url})`);
  return a;
}

describe("patch-reducer.json streams", () => {
  for (const v of vectors) {
    const rounds: unknown[][] = v.rounds ?? [v.messages];
    for (const eol of ["\n", "\r\n"]) {
      for (const [label, split] of SPLITS) {
        test(`${v.id} — ${eol === "\n" ? "LF" : "CRLF"} — ${label}`, async () => {
          const bytes = bodyOfRounds(rounds, eol);
          for (const opts of [ON, STRIP]) {
            const r = await reduceBytes(split(bytes), opts);
            expect(r.thinking).toBe(v.expected_emitted.thinking);
            expect(r.answer).toBe(expectedAnswer(v, opts.stripReferenceMarkers));
            const last = v.expected_outcomes[v.expected_outcomes.length - 1];
            expect(r.end.outcome).toBe(last === "continue" ? "truncated" : last);
            expect(r.events.filter((e) => e.type === "round").length).toBe(rounds.length);
            expect(r.events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", tokens: v.expected_final_state.accumulated_token_usage }]);
            expect(r.events[r.events.length - 1]!.type).toBe("end");
          }
        });
      }
    }
  }

  test("the search vector passes the resolved references on (index, fragment id, type, url, title)", async () => {
    const v = vectors.find((x) => x.id === "search-tools-and-references");
    const r = await reduceAll(bodyOfRounds([v.messages]), STRIP);
    const refs = r.events.flatMap((e) => (e.type === "references" ? e.references : []));
    expect(refs).toEqual([
      { index: 0, fragmentId: 5, type: "TOOL_OPEN", url: "https://a.example/1", title: "A1" },
      { index: 1, fragmentId: 4, type: "TOOL_SEARCH", url: "https://b.example/2", title: "B2" },
    ]);
  });

  test("thinking text is emitted even when thinking is disabled (the pipeline hides it later)", async () => {
    const v = vectors.find((x) => x.id === "thinking-then-answer-sticky-path-and-op");
    const r = await reduceAll(bodyOfRounds([v.messages]), { thinkingEnabled: false, stripReferenceMarkers: true });
    expect(r.thinking).toBe("We only need markdown.");
    expect(r.answer).toBe("```markdown\n# H1\n```");
  });

  test("what is new after an append is exactly the new suffix, however the batch appended or replaced", async () => {
    const messages = [
      { v: { response: { status: "WIP", fragments: [{ id: 1, type: "RESPONSE", content: "He" }] } } },
      { p: "response/fragments/-1/content", o: "APPEND", v: "llo" },
      // Two appends in one batch: only the last is remembered, the suffix covers both.
      { p: "response/fragments/-1", o: "BATCH", v: [{ p: "content", o: "APPEND", v: " wo" }, { p: "content", o: "APPEND", v: "rld" }] },
      // A replacement shorter than what was emitted, then an append: only the characters past the emitted ones.
      { p: "response/fragments/-1", o: "BATCH", v: [{ p: "content", o: "SET", v: "Hello w" }, { p: "content", o: "APPEND", v: "orld!!" }] },
      { p: "response/fragments/-1/content", o: "APPEND", v: "?" },
      { p: "response/status", o: "SET", v: "FINISHED" },
    ];
    const r = await reduceAll(bodyOfRounds([messages]), STRIP);
    expect(r.answer).toBe("Hello world!!?");
    expect(r.end).toEqual({ type: "end", outcome: "finished", visible: true });
  });

  test("whitespace-only and markdown-only tokens are emitted byte-exact, one event per new suffix", async () => {
    const v = vectors.find((x) => x.id === "thinking-disabled-response-only");
    const r = await reduceAll(bodyOfRounds([v.messages]), STRIP);
    expect(r.events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text)).toEqual(["Hello", ",", " ", "world", "\n", "    ", "- item"]);
    expect(r.end).toEqual({ type: "end", outcome: "finished", visible: true });
  });

  test("round events carry the ids and the echoed model type of each ready", async () => {
    const r = await reduceAll(bodyOfRounds([[{ v: { response: { status: "WIP", fragments: [] } } }]]));
    expect(r.events[0]).toEqual({ type: "round", round: 1, requestMessageId: 1, responseMessageId: 2, modelType: "default" });
  });
});

/** A snapshot head with one THINK fragment. */
const snapshot = (content: string, extra: Record<string, unknown> = {}) => ({
  v: { response: { message_id: 2, status: "WIP", accumulated_token_usage: 0, fragments: [{ id: 2, type: "THINK", content, references: [], stage_id: 1 }], ...extra } },
});
const answerFragment = (content: string, id = 3) => ({ p: "response/fragments", o: "APPEND", v: [{ id, type: "RESPONSE", content, references: [], stage_id: 1 }] });
/** Appends to the newest fragment with an explicit path (a pathless token right after a fragments APPEND
 * would continue the fragments path, as in core's streams). */
const more = (v: string) => ({ p: "response/fragments/-1/content", o: "APPEND", v });
const finished = [
  { p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: 42 }, { p: "quasi_status", v: "FINISHED" }] },
  { p: "response/status", o: "SET", v: "FINISHED" },
];

describe("emission rules", () => {
  test("nothing is emitted after the round's status became FINISHED (core may still send metadata)", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("A"), ...finished, { p: "response/fragments/-1/content", o: "APPEND", v: "late" }]]));
    expect(r.answer).toBe("A");
    expect(r.end.outcome).toBe("finished");
  });

  test("quasi_status FINISHED alone is not the end: EOF while WIP is truncated", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("A"), finished[0]!]]));
    expect(r.end.outcome).toBe("truncated");
    expect(r.end.visible).toBe(true);
  });

  test("TIP, TEMPLATE_RESPONSE and TOOL_* fragments, titles and statuses are never emitted", async () => {
    const body = bodyOfRounds([
      [
        snapshot("t"),
        { p: "response/fragments", o: "APPEND", v: [{ id: 5, type: "TOOL_SEARCH", content: "q", results: [] }, { id: 6, type: "TOOL_OPEN", content: "o" }] },
        { p: "response/fragments/-1/status", v: "FINISHED" },
        answerFragment("A"),
        { p: "response/fragments", v: [{ id: 9, type: "TIP", content: "disclaimer" }] },
        { p: "response/fragments", o: "APPEND", v: [{ id: 10, type: "TEMPLATE_RESPONSE", content: "template" }] },
        ...finished,
      ],
    ]);
    const r = await reduceAll(new TextEncoder().encode(new TextDecoder().decode(body) + 'event: title\ndata: {"content":"Title"}\n\n'));
    expect([r.thinking, r.answer, r.end.outcome]).toEqual(["t", "A", "finished"]);
  });

  test("several THINK stages are concatenated in order; a RESPONSE appended with empty content emits nothing yet", async () => {
    const r = await reduceAll(
      bodyOfRounds([[snapshot("one"), { p: "response", o: "BATCH", v: [{ p: "fragments", o: "APPEND", v: [{ id: 7, type: "THINK", content: "two" }] }] }, answerFragment(""), more("x"), ...finished]]),
    );
    expect(r.thinking).toBe("onetwo");
    expect(r.events.filter((e) => e.type === "text")).toEqual([{ type: "text", text: "x" }]);
  });

  test("sticky path and op are reset at every ready: a pathless token right after round 2's snapshot has no path", async () => {
    // Round 1's last patch leaves the sticky path on the content (core would end it with statuses; the
    // point here is what a leftover path would do).
    const round1 = [snapshot("a"), more("b")];
    const round2 = [snapshot("abc"), { v: "dropped" }, more("d"), ...finished];
    const r = await reduceAll(bodyOfRounds([round1, round2]));
    expect(r.thinking).toBe("abcd");
  });

  test("comments become keep-alive events, wherever they come", async () => {
    const r = await reduceAll(`: \n\n${READY}: \n\ndata: ${JSON.stringify(snapshot("a"))}\n\n: \n\n`);
    expect(r.events.filter((e) => e.type === "keepalive").length).toBe(3);
    expect(r.thinking).toBe("a");
  });

  test("unknown events and EOF right after update_session are fine; no [DONE] needed", async () => {
    const r = await reduceAll(`${READY}event: mystery\ndata: {"v":"not text"}\n\ndata: ${JSON.stringify(snapshot("a"))}\n\nevent: update_session\ndata: {}\n\n`);
    expect([r.thinking, r.answer, r.end.outcome]).toEqual(["a", "", "truncated"]);
  });
});

describe("continue rounds (continue.json observed_two_round_exchange)", () => {
  const facts = loadVectors("continue.json").observed_two_round_exchange;
  // Round 1 streams 50 097 characters of thinking; the continue snapshot holds 50 099 (2 never streamed).
  const thinkAll = Array.from({ length: facts.round2.final_thinking_chars }, (_, i) => "思考中的内容，abc "[i % 11]).join("");
  const answer = Array.from({ length: facts.round1.answer_chars + facts.round2.final_answer_chars }, (_, i) => "答案 text "[i % 8]).join("");
  const r1 = facts.round1.visible_thinking_chars as number;
  const r2 = facts.round2.snapshot_thinking_chars as number;
  const tokens = (s: string, n: number) => Array.from({ length: Math.ceil(s.length / n) }, (_, i) => s.slice(i * n, (i + 1) * n));
  const round1 = [
    snapshot(thinkAll.slice(0, 2)),
    { p: "response/fragments/-1/content", o: "APPEND", v: thinkAll.slice(2, 9) },
    ...tokens(thinkAll.slice(9, r1), 7).map((v) => ({ v })),
    { p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: 2413 }, { p: "quasi_status", v: "INCOMPLETE" }] },
    { p: "response/fragments/-1/elapsed_secs", o: "SET", v: 692.78 },
    { p: "response/status", v: "INCOMPLETE" },
  ];
  const round2 = [
    { v: { response: { message_id: 2, status: "WIP", accumulated_token_usage: 2413, fragments: [{ id: 2, type: "THINK", content: thinkAll.slice(0, r2), stage_id: 1 }] } } },
    { p: "response/fragments/-1/content", o: "APPEND", v: thinkAll.slice(r2, r2 + 5) },
    ...tokens(thinkAll.slice(r2 + 5), 9).map((v) => ({ v })),
    { p: "response/fragments/-1/elapsed_secs", o: "SET", v: 3.1 },
    { p: "response/fragments", o: "APPEND", v: [{ id: 3, type: "RESPONSE", content: answer.slice(0, 3), references: [], stage_id: 0 }] },
    { p: "response/fragments/-1/content", v: answer.slice(3, 10) },
    ...tokens(answer.slice(10), 5).map((v) => ({ v })),
    { p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: 2551 }, { p: "quasi_status", v: "FINISHED" }] },
    { p: "response/status", o: "SET", v: "FINISHED" },
  ];
  // The continue round starts with a keep-alive before update_session, as observed.
  const text = new TextDecoder().decode(bodyOfRounds([round1, round2])).replace(/(event: ready\n[^\n]*\n\n)(?=event: update_session[^]*?"v":\{"response":\{"message_id":2,"status":"WIP","accumulated_token_usage":2413)/, "$1: \n\n");
  const bytes = enc.encode(text);

  test("every character once across the two rounds, usage carried over, outcome finished — every chunking", async () => {
    const r = await reduceAll(bytes, STRIP);
    expect(r.thinking.length).toBe(facts.round2.final_thinking_chars);
    expect(r.thinking).toBe(thinkAll);
    expect(r.answer).toBe(answer);
    expect(r.answer.length).toBe(facts.round2.final_answer_chars);
    expect(r.events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", tokens: 2551 }]);
    expect(r.events.filter((e) => e.type === "keepalive").length).toBe(1);
    expect(r.end).toEqual({ type: "end", outcome: "finished", visible: true });
  });

  test("the round tracker decides continue (id 2) after round 1 and finished after round 2", () => {
    const [head, tail] = [text.slice(0, text.indexOf(READY, 1)), text.slice(text.indexOf(READY, 1))];
    const t = new RoundTracker();
    const d1 = new SseDecoder();
    for (const f of [...d1.push(head), ...d1.end()]) t.observe(f);
    expect(t.outcome(0)).toEqual({ outcome: "continue", responseMessageId: 2 });
    t.nextRound();
    const d2 = new SseDecoder();
    for (const f of [...d2.push(tail), ...d2.end()]) t.observe(f);
    expect(t.outcome(1)).toEqual({ outcome: "finished", responseMessageId: 2 });
  });
});

describe("content filter", () => {
  const filterBatch = { v: [{ p: "ban_regenerate", v: true }, { p: "status", v: "CONTENT_FILTER" }, { p: "fragments", v: [{ id: 38, type: "TEMPLATE_RESPONSE", content: "TEMPLATE" }] }, { p: "quasi_status", v: "CONTENT_FILTER" }] };

  test("a filter batch before any answer text: nothing visible, outcome content_filter", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("thinking"), filterBatch]]), STRIP);
    expect([r.thinking, r.answer]).toEqual(["thinking", ""]);
    expect(r.end).toEqual({ type: "end", outcome: "content_filter", visible: false });
  });

  test('{"code":"content_filter"} ends the answer: earlier text stays, later text is dropped', async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("safe"), { code: "content_filter" }, more(" more"), ...finished]]), STRIP);
    expect(r.answer).toBe("safe");
    expect(r.end.outcome).toBe("content_filter");
  });

  test("a nested CONTENT_FILTER status (any case) is a filter signal", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("safe"), { p: "response", v: [{ p: "status", v: "content_filter" }] }, more("x")]]), STRIP);
    expect([r.answer, r.end.outcome]).toEqual(["safe", "content_filter"]);
  });

  test("a leaked upper-case marker split across deltas is cut, trailing spaces trimmed, nothing after it emitted", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("Here is the start. CONTENT_"), more("FILTER你好，这个问题我暂时无法回答"), { v: " more" }, ...finished]]), STRIP);
    expect(r.answer).toBe("Here is the start.");
    expect(r.end.outcome).toBe("content_filter");
  });

  test("lower-case content_filter in model text is ordinary text; a held-back upper-case prefix is released", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("the content_filter flag, CONTENT"), more("S matter"), { v: " END_C" }, ...finished]]), STRIP);
    expect(r.answer).toBe("the content_filter flag, CONTENTS matter END_C");
    expect(r.end.outcome).toBe("finished");
  });

  test("the input refusal sentence as a short whole answer is a content filter (text already streamed stays)", async () => {
    const refusal = "抱歉，系统检测到您当前输入的信息存在敏感内容，我无法响应您的请求，请尝试更换其他合规话题重新提问。";
    const r = await reduceAll(bodyOfRounds([[snapshot(""), answerFragment(refusal.slice(0, 10)), more(refusal.slice(10)), ...finished]]), STRIP);
    expect(r.answer).toBe(refusal);
    expect(r.end.outcome).toBe("content_filter");
  });
});

describe("reference markers", () => {
  const cite = (n: number, first: boolean) => ({
    p: "response/fragments/-1",
    o: "BATCH",
    v: [{ p: "content", o: "APPEND", v: `[reference:${n}]` }, { p: "references", ...(first ? { o: "SET" } : {}), v: [{ id: 5, type: "TOOL_OPEN" }] }],
  });
  const open = { p: "response/fragments", o: "APPEND", v: [{ id: 5, type: "TOOL_OPEN", status: "FINISHED", result: { url: "https://a.example/x", title: "X" } }] };

  test("a marker split across deltas after a continue snapshot is held back, then stripped or linked", async () => {
    // Round 2's snapshot ends inside a marker; the rest of it arrives as a pathless token.
    const round1 = [snapshot("t"), open, answerFragment("Rain"), cite(0, true), { p: "response/status", v: "INCOMPLETE" }];
    const snap2 = {
      v: {
        response: {
          message_id: 2,
          status: "WIP",
          fragments: [
            { id: 2, type: "THINK", content: "t" },
            { id: 5, type: "TOOL_OPEN", result: { url: "https://a.example/x", title: "X" } },
            { id: 3, type: "RESPONSE", content: "Rain[reference:0] more[refer", references: [{ id: 5, type: "TOOL_OPEN" }, { id: 5, type: "TOOL_OPEN" }] },
          ],
        },
      },
    };
    const round2 = [snap2, { p: "response/fragments/-1/content", o: "APPEND", v: "ence:1] end [reference:7]" }, ...finished];
    expect((await reduceAll(bodyOfRounds([round1, round2]), STRIP)).answer).toBe("Rain more end ");
    // With stripping off: resolved markers become links, an unresolvable one stays.
    expect((await reduceAll(bodyOfRounds([round1, round2]), ON)).answer).toBe("Rain[0](https://a.example/x) more[1](https://a.example/x) end [reference:7]");
  });

  test("marker stripping ignores case and spaces after the colon; a lone '[' at the end of the answer is kept", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("a[Reference: 3]b"), more("["), ...finished]]), STRIP);
    expect(r.answer).toBe("ab[");
  });
});

describe("errors inside or instead of the stream", () => {
  const errorCases: [string, string, string, string][] = [
    ["input too long", `${READY}data: {"type":"error","content":"内容超长，请删减后再试","clear_response":true,"finish_reason":"input_exceeds_limit"}\n\n`, "input_exceeds_limit", "内容超长，请删减后再试"],
    ["busy SSE line", `${READY}data: {"type":"error","content":"有消息正在生成，请稍后再试"}\n\n`, "upstream_busy", "有消息正在生成，请稍后再试"],
    ["other type:error", `${READY}data: {"type":"error","content":"something odd"}\n\n`, "upstream_error", "something odd"],
    ["error key, string", `${READY}data: {"error":"boom"}\n\n`, "upstream_error", "boom"],
    ["error key, object", `${READY}data: {"error":{"message":"rate limit","code":429}}\n\n`, "upstream_error", '{"message":"rate limit","code":429}'],
    ["invalid ref file id envelope", '{"code":0,"msg":"","data":{"biz_code":9,"biz_msg":"invalid ref file id","biz_data":null}}', "upstream_invalid_ref_file_id", "invalid ref file id"],
    ["busy JSON body", '{"msg":"有消息正在生成，请稍后再试"}', "upstream_busy", "有消息正在生成，请稍后再试"],
    ["gateway idle timeout frame", `${READY}\n\ndata: {"type":"error","content":"core sent nothing for too long","gateway_code":"upstream_timeout"}\n\n`, "upstream_timeout", "core sent nothing for too long"],
  ];
  for (const [name, body, code, message] of errorCases) {
    test(`${name} → end with outcome error and code ${code}`, async () => {
      const r = await reduceAll(body);
      expect(r.end).toEqual({ type: "end", outcome: "error", code, message, visible: false });
      expect(r.events.filter((e) => e.type === "end").length).toBe(1);
    });
  }

  test("an error after visible text keeps the text and reports visible: true; nothing follows the end event", async () => {
    const r = await reduceAll(bodyOfRounds([[snapshot("t"), answerFragment("partial"), { error: "boom" }, more(" never"), ...finished]]));
    expect(r.answer).toBe("partial");
    expect(r.events[r.events.length - 1]).toEqual({ type: "end", outcome: "error", code: "upstream_error", message: "boom", visible: true });
  });
});

describe("usage", () => {
  test("a string usage value is ignored and never becomes text; the last numeric value wins", async () => {
    const r = await reduceAll(
      bodyOfRounds([[snapshot("t", { accumulated_token_usage: 0 }), answerFragment("A"), { p: "response/accumulated_token_usage", v: 7 }, { p: "response", o: "BATCH", v: [{ p: "accumulated_token_usage", v: "lots" }] }, { p: "response/status", v: "FINISHED" }]]),
    );
    expect(r.answer).toBe("A");
    expect(r.events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", tokens: 7 }]);
  });

  test("token_usage patched on the response is an alias", async () => {
    const r = await reduceAll(bodyOfRounds([[{ v: { response: { status: "WIP", fragments: [] } } }, { p: "response/token_usage", v: 99 }, { p: "response/status", v: "FINISHED" }]]));
    expect(r.events.filter((e) => e.type === "usage")).toEqual([{ type: "usage", tokens: 99 }]);
  });
});

describe("line-extractor path (rounds that do not start with a snapshot)", () => {
  const collect = loadVectors("sse-stream-collect.json").cases as any[];
  for (const c of collect.filter((x) => !x.id.startsWith("continue-snapshot"))) {
    test(`collector case ${c.id} through coreReduce gives the same channel text`, async () => {
      const body = READY + c.body_lines.join("\n\n") + "\n\n";
      const r = await reduceAll(body, { thinkingEnabled: c.thinking_enabled, stripReferenceMarkers: true });
      if (c.expect.text !== undefined) expect(r.answer).toBe(c.expect.text);
      // The stream stage keeps thinking although thinking is disabled (the pipeline hides it later).
      if (c.expect.thinking !== undefined && c.thinking_enabled) expect(r.thinking).toBe(c.expect.thinking);
      if (c.expect.content_filter) expect(r.end.outcome).toBe("content_filter");
    });
  }

  test("legacy shapes: thinking then answer, [DONE] finishes the round", async () => {
    const r = await reduceAll(`${READY}data: {"p":"response/thinking_content","v":"Thinking..."}\n\ndata: {"p":"response/content","v":"Answer"}\n\ndata: {"p":"response/content","v":{"text":" object"}}\n\ndata: [DONE]\n\n`);
    expect([r.thinking, r.answer, r.end.outcome]).toEqual(["Thinking...", "Answer object", "finished"]);
  });

  test("a continue round on the line path is de-duplicated by the UTF-8 overlap trim", async () => {
    const prefix = "一二三四五六七八九十一二"; // 36 UTF-8 bytes, 12 UTF-16 units
    const body =
      READY +
      `data: {"p":"response/content","v":"${prefix}"}\n\ndata: {"p":"response/status","v":"INCOMPLETE"}\n\n` +
      READY +
      `data: {"p":"response/content","v":"${prefix}续"}\n\ndata: {"v":"完"}\n\ndata: {"p":"response/status","v":"FINISHED"}\n\n`;
    const r = await reduceAll(body, { thinkingEnabled: false, stripReferenceMarkers: true });
    expect([r.answer, r.end.outcome]).toEqual([`${prefix}续完`, "finished"]);
  });

  test("with search enabled, [citation:N] is linked through the URLs seen so far in the body's data", async () => {
    const body =
      READY +
      'data: {"p":"response/fragments/-1/results","v":[{"url":"https://example.com/a","cite_index":null},{"url":"https://example.com/b","cite_index":null}]}\n\n' +
      'data: {"p":"response/content","v":"R[citation:2] and [citation:9]"}\n\n';
    const on = await reduceAll(body, { thinkingEnabled: false, stripReferenceMarkers: true, searchEnabled: true });
    expect(on.answer).toBe("R[2](https://example.com/b) and [citation:9]");
    const off = await reduceAll(body, { thinkingEnabled: false, stripReferenceMarkers: true });
    expect(off.answer).toBe("R[citation:2] and [citation:9]");
  });
});

describe("class API", () => {
  test("CoreReducer push/end gives the same events as the TransformStream", async () => {
    const v = vectors.find((x) => x.id === "continue-round-snapshot-dedupe");
    const bytes = bodyOfRounds(v.rounds);
    const d = new SseDecoder();
    const red = new CoreReducer(ON);
    const events: CoreEvent[] = [];
    for (const f of [...d.push(bytes), ...d.end()]) red.push(f, (e) => events.push(e));
    red.end((e) => events.push(e));
    const viaStream = await runTransform(coreReduce(ON), [...new SseDecoder().push(bytes), ...new SseDecoder().end()]);
    expect(events).toEqual(viaStream);
  });
});
