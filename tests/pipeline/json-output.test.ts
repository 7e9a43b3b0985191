// The structured-output stage (issue 16 item 5), driven with hostile chunk boundaries: whole, one character at
// a time (fences and brackets split everywhere), seeded random splits.
import { describe, expect, test } from "bun:test";
import { evaluateJson, jsonOutputStage, settleJson, type JsonOutputOptions } from "../../src/pipeline/json-output";
import type { JsonOutputSpec, TurnEvent, Usage } from "../../src/pipeline/types";
import { perCodePoint, randomSplits, runTransform } from "../helpers/chunking";

const usage: Usage = { promptTokens: 10, completionTokens: 5, reasoningTokens: 0, totalTokens: 15 };
const finish: TurnEvent = { type: "finish", outcome: "stop", usage };
const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const withSchema: JsonOutputSpec = { kind: "json_schema", schema };

const textEvents = (pieces: string[]): TurnEvent[] => pieces.map((text) => ({ type: "text", text }));
const chunkings = (s: string): [string, string[]][] => [
  ["whole", [s]],
  ["one char at a time", perCodePoint(s)],
  ...[1, 2, 3].map((seed): [string, string[]] => [`random seed ${seed}`, randomSplits(s, seed, 7)]),
];
const texts = (events: TurnEvent[]) => events.filter((e) => e.type === "text").map((e) => (e as { text: string }).text);

/** The stage takes batches: the events go in seeded random batches, so a batch boundary falls anywhere. */
async function run(opts: JsonOutputOptions, events: TurnEvent[]) {
  return (await runTransform(jsonOutputStage(opts), randomSplits(events, events.length, 3))).flat();
}

describe("jsonOutputStage: one JSON text event before the finish, whatever the chunking", () => {
  const answers: [string, string][] = [
    ['Here it is:\n\n```json\n{"city": "Oslo"}\n```\n\nAnything else?', '{"city": "Oslo"}'],
    ['{"city":"Bergen"}', '{"city":"Bergen"}'],
    ['```\n{"city":"a ``` b"}\n```', '{"city":"a ``` b"}'],
    ['Sure {"city":"Tromsø 🙂"} done', '{"city":"Tromsø 🙂"}'],
  ];
  for (const [answer, json] of answers) {
    for (const [name, pieces] of chunkings(answer)) {
      test(`${JSON.stringify(answer).slice(0, 30)}… ${name}`, async () => {
        const out = await run({ spec: withSchema }, [...textEvents(pieces), finish]);
        expect(out).toEqual([{ type: "text", text: json }, finish]);
      });
    }
  }

  test("thinking and keep-alives pass at once, while the text waits", async () => {
    const out = await run({ spec: { kind: "json_object" } }, [
      { type: "thinking", text: "hm" },
      { type: "text", text: "```json\n{" },
      { type: "keepalive" },
      { type: "text", text: '"a":1}\n```' },
      { type: "thinking", text: "late" },
      finish,
    ]);
    expect(out).toEqual([{ type: "thinking", text: "hm" }, { type: "keepalive" }, { type: "thinking", text: "late" }, { type: "text", text: '{"a":1}' }, finish]);
  });

  test("an empty answer sends no text event", async () => {
    const out = await run({ spec: { kind: "json" } }, [finish]);
    expect(out).toEqual([finish]);
  });
});

describe("jsonOutputStage: tool calls still work in JSON mode", () => {
  test("a call switches the stage off: held text goes out unchanged, then the call and everything after it", async () => {
    const call: TurnEvent[] = [
      { type: "call_start", index: 0, id: "call_1", name: "get_weather" },
      { type: "call_args", index: 0, fragment: '{"city":' },
      { type: "call_args", index: 0, fragment: '"Oslo"}' },
      { type: "call_end", index: 0 },
    ];
    const events: TurnEvent[] = [...textEvents(perCodePoint("Let me check.")), ...call, { type: "text", text: " after" }, { ...finish, outcome: "tool_calls" }];
    let retried = false;
    const out = await run({ spec: withSchema, retry: async () => ((retried = true), null) }, events);
    expect(out).toEqual([{ type: "text", text: "Let me check." }, ...call, { type: "text", text: " after" }, { ...finish, outcome: "tool_calls" }]);
    expect(retried).toBe(false);
  });

  test("an error: held text goes out before it, nothing is retried", async () => {
    const err: TurnEvent = { type: "error", status: 503, code: "upstream_unavailable", message: "x" };
    const out = await run({ spec: withSchema }, [{ type: "text", text: '{"ci' }, err]);
    expect(out).toEqual([{ type: "text", text: '{"ci' }, err]);
  });

  test("a stream that ends without a finish keeps its text", async () => {
    const out = await run({ spec: withSchema }, [{ type: "text", text: "partial" }]);
    expect(out).toEqual([{ type: "text", text: "partial" }]);
  });
});

describe("the one retry", () => {
  test("a schema miss is retried once with the problem; the retry's JSON goes out and usage adds up", async () => {
    const calls: [string, string][] = [];
    const retry = async (answer: string, problem: string) => {
      calls.push([answer, problem]);
      return { text: '```json\n{"city":"Oslo"}\n```', usage };
    };
    const warnings: string[] = [];
    const out = await run({ spec: withSchema, retry, warn: (m) => warnings.push(m) }, [...textEvents(['{"town":', '"Oslo"}']), finish]);
    expect(calls).toEqual([['{"town":"Oslo"}', "$.city is required but missing"]]);
    expect(out).toEqual([
      { type: "text", text: '{"city":"Oslo"}' },
      { ...finish, usage: { promptTokens: 20, completionTokens: 10, reasoningTokens: 0, totalTokens: 30 } },
    ]);
    expect(warnings).toEqual([]);
  });

  test("prose without JSON is retried too; a second miss goes out as is with a warning", async () => {
    const warnings: [string, unknown][] = [];
    const out = await run(
      { spec: withSchema, retry: async () => ({ text: "Still prose." }), warn: (m, f) => warnings.push([m, f]) },
      [{ type: "text", text: "I think Oslo." }, finish],
    );
    expect(texts(out)).toEqual(["Still prose."]);
    expect(warnings).toEqual([["structured output: still not the requested JSON after one retry; returned as is", { first: "the answer contains no JSON value", retry: "the answer contains no JSON value" }]]);
  });

  test("a retry whose JSON parses but misses the schema: the extracted JSON goes out (fences removed), with a warning", async () => {
    const warnings: string[] = [];
    const out = await run({ spec: withSchema, retry: async () => ({ text: '```json\n{"town":1}\n```' }), warn: (m) => warnings.push(m) }, [{ type: "text", text: "no" }, finish]);
    expect(texts(out)).toEqual(['{"town":1}']);
    expect(warnings).toHaveLength(1);
  });

  test("a failed retry (null or thrown) returns the first answer as is, with a warning", async () => {
    for (const retry of [async () => null, async () => Promise.reject(new Error("boom"))]) {
      const warnings: string[] = [];
      const out = await run({ spec: withSchema, retry, warn: (m) => warnings.push(m) }, [{ type: "text", text: " prose " }, finish]);
      expect(out).toEqual([{ type: "text", text: "prose" }, finish]);
      expect(warnings).toEqual(["structured output: the retry failed; the first answer is returned as is"]);
    }
  });

  test("a content-filtered answer is not retried", async () => {
    let retried = false;
    const filtered: TurnEvent = { ...finish, outcome: "content_filter" };
    const out = await run({ spec: withSchema, retry: async () => ((retried = true), null) }, [{ type: "text", text: "partial" }, filtered]);
    expect(out).toEqual([{ type: "text", text: "partial" }, filtered]);
    expect(retried).toBe(false);
  });

  test("without a schema there is no retry: json_object prose goes out as is with a warning", async () => {
    let retried = false;
    const warnings: string[] = [];
    const out = await run({ spec: { kind: "json_object" }, retry: async () => ((retried = true), null), warn: (m) => warnings.push(m) }, [{ type: "text", text: "nope" }, finish]);
    expect(texts(out)).toEqual(["nope"]);
    expect(retried).toBe(false);
    expect(warnings).toHaveLength(1);
  });
});

describe("evaluateJson and settleJson", () => {
  test("json_object wants an object; json takes any value; json_schema checks the schema", () => {
    expect(evaluateJson("See [1]: {\"a\":1}", { kind: "json_object" })).toMatchObject({ ok: true, json: '{"a":1}' });
    expect(evaluateJson("[1]", { kind: "json_object" })).toMatchObject({ ok: false, problem: "$ must be object, not array" });
    expect(evaluateJson("[1]", { kind: "json" })).toMatchObject({ ok: true, json: "[1]" });
    expect(evaluateJson('{"city":2}', withSchema)).toMatchObject({ ok: false, json: '{"city":2}', problem: "$.city must be string, not number" });
  });

  test("settleJson leaves the usage alone when no retry ran", async () => {
    expect(await settleJson('{"city":"x"}', usage, { spec: withSchema })).toEqual({ text: '{"city":"x"}', usage });
  });
});
