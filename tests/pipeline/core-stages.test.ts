// sseDecode + coreReduce on the vectors (patch-reducer.json, continue.json, sse-line-parse.json,
// sse-stream-collect.json, token-estimate.json), streams fed whole, one byte at a time and in random splits.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { onePerUnit, randomSplits, runTransform } from "../helpers/chunking";
import { SseDecoder } from "../../src/core/sse";
import { sseDecode } from "../helpers/text-stages";
import { coreReduce } from "../helpers/stages";
import { RoundTracker } from "../../src/core/round-tracker";
import { estimateTokens } from "../../src/pipeline/token-estimate";
import { computeUsage } from "../../src/pipeline/usage";
import type { CoreEvent } from "../../src/pipeline/types";

const enc = new TextEncoder();

function bodyOf(rounds: unknown[][]): Uint8Array {
  let s = "";
  for (const msgs of rounds) {
    s += 'event: ready\ndata: {"request_message_id":1,"response_message_id":2}\n\n';
    for (const m of msgs) s += `data: ${JSON.stringify(m)}\n\n`;
  }
  return enc.encode(s);
}

async function reduce(bytes: Uint8Array, split: (b: Uint8Array) => Uint8Array[], opts = { thinkingEnabled: true, stripReferenceMarkers: false }) {
  const events: CoreEvent[] = [];
  const frames = await runTransform(sseDecode(), split(bytes));
  events.push(...(await runTransform(coreReduce(opts), frames)));
  const thinking = events.filter((e) => e.type === "thinking").map((e) => (e as { text: string }).text).join("");
  const answer = events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text).join("");
  return { events, thinking, answer, end: events.find((e) => e.type === "end") as Extract<CoreEvent, { type: "end" }> };
}

const splits: [string, (b: Uint8Array) => Uint8Array[]][] = [
  ["whole", (b) => [b]],
  ["one byte at a time", (b) => onePerUnit(b)],
  ["random splits", (b) => randomSplits(b, 3, 23)],
];

describe("patch reducer vectors", () => {
  for (const v of loadVectors("patch-reducer.json").vectors as any[]) {
    for (const [label, split] of splits) {
      test(`${v.id} — ${label}`, async () => {
        const r = await reduce(bodyOf(v.rounds ?? [v.messages]), split);
        if (v.expected_reference_links) {
          // With stripping off, markers become links resolved through the references (core-upstream §7.8).
          let expected = v.expected_emitted.answer as string;
          for (const [n, url] of Object.entries(v.expected_reference_links)) expected = expected.replace(`[reference:${n}]`, `[${n}](${url})`);
          expect(r.answer).toBe(expected);
        } else expect(r.answer).toBe(v.expected_emitted.answer);
        expect(r.thinking).toBe(v.expected_emitted.thinking);
        const last = v.expected_outcomes[v.expected_outcomes.length - 1];
        expect(r.end.outcome).toBe(last === "continue" ? "truncated" : last);
      });
    }
  }

  test("markers are stripped by default, also when a delta ends inside one", async () => {
    const v = (loadVectors("patch-reducer.json").vectors as any[]).find((x) => x.expected_reference_links);
    const r = await reduce(bodyOf(v.rounds ?? [v.messages]), (b) => onePerUnit(b), { thinkingEnabled: true, stripReferenceMarkers: true });
    expect(r.answer).toBe("Rain today.");
  });
});

describe("SSE framing", () => {
  test("CRLF and CR line ends, comments and multi-line data", () => {
    const d = new SseDecoder();
    const frames = [...d.push(enc.encode("event: ready\r\ndata: {\"a\":1}\r\n\r\n: \r\n\r\ndata: x\rdata: y\r\r")), ...d.end()];
    expect(frames).toEqual([{ event: "ready", data: '{"a":1}' }, { event: "comment", data: "", comment: true }, { event: "message", data: "x\ny" }]);
  });

  test("a line over 2 MiB in small chunks, and a UTF-8 sequence split across chunks", async () => {
    const big = "你".repeat(800_000);
    const bytes = enc.encode(`data: ${JSON.stringify({ v: big })}\n\n`);
    const frames = await runTransform(sseDecode(), randomSplits(bytes, 5, 4096));
    expect(frames).toHaveLength(1);
    expect(JSON.parse(frames[0]!.data).v).toBe(big);
  });

  test("a bare JSON envelope instead of a stream is a failure end event", async () => {
    const r = await reduce(enc.encode('{"code":0,"msg":"","data":{"biz_code":9,"biz_msg":"invalid ref file id","biz_data":null}}\n'), (b) => [b]);
    expect(r.end).toMatchObject({ outcome: "error", code: "upstream_invalid_ref_file_id" });
  });

  test("in-stream errors map to their kinds", async () => {
    const tooLong = await reduce(enc.encode('data: {"type":"error","content":"内容超长，请删减后再试","finish_reason":"input_exceeds_limit"}\n\n'), (b) => [b]);
    expect(tooLong.end.code).toBe("input_exceeds_limit");
    const keyErr = await reduce(enc.encode('data: {"error":"boom"}\n\n'), (b) => [b]);
    expect(keyErr.end).toMatchObject({ outcome: "error", code: "upstream_error", message: "boom" });
  });
});

describe("continue decision (continue.json)", () => {
  for (const v of loadVectors("continue.json").decision_vectors as any[]) {
    test(v.id, () => {
      const t = new RoundTracker();
      const d = new SseDecoder();
      for (const f of [...d.push(v.round_lines.join("\n\n") + "\n\n"), ...d.end()]) t.observe(f);
      expect(t.shouldContinue(v.rounds_so_far ?? 0, 8)).toBe(v.expect.continue);
      if (v.expect.message_id !== undefined) expect(t.responseMessageId).toBe(v.expect.message_id);
    });
  }
});

describe("usage", () => {
  for (const v of loadVectors("token-estimate.json").vectors as any[])
    test(`estimate ${JSON.stringify(v.text)}`, () => expect(estimateTokens(v.text)).toBe(v.tokens));
  test("core's total wins: prompt capped by it, completion the rest, reasoning capped by completion (D9.7)", () => {
    expect(computeUsage({ upstreamTotal: 100, promptEstimate: 30, reasoningText: "a".repeat(400), answerText: "x" })).toEqual({
      promptTokens: 30,
      completionTokens: 70,
      reasoningTokens: 70,
      totalTokens: 100,
    });
    expect(computeUsage({ promptEstimate: 5, reasoningText: "abcd", answerText: "abcdefgh" })).toEqual({ promptTokens: 5, completionTokens: 3, reasoningTokens: 1, totalTokens: 8 });
  });
});
