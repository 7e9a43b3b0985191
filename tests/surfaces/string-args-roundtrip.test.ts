// The round trip of issue 29, over HTTP on every surface: a random string written by core as a string parameter
// (CDATA, as the tool instructions ask) reaches the client's arguments exactly, stream and non-stream alike; sent
// back in the history, it reaches core's next prompt written so that reading it back gives the same text
// (svcml-and-prompts.md §1.11, §2.5 condition S, §3.7).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startSimGateway, type SimGateway } from "../helpers/sim-gateway";
import { rng } from "../helpers/chunking";
import { SvcmlDetector } from "../../src/pipeline/svcml/detector";
import { schemaLookup } from "../../src/pipeline/svcml/coerce";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
beforeEach(() => gw.sim.reset());

const SCHEMA = { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } }, required: ["file_path", "content"] };

const PIECES = ['{\n  "a": 1.0,\n  "n": 12345678901234567890\n}\n', "[1, 2, 3]", '"hello"', "'hello'", '<div className="x"><span>hi</span></div>', "]]>", "<![CDATA[x]]>", "\\", '\\"', "😀", "中文", "  ", "\n", "\t", "null", "42", "&amp;", "</parameter>", "```js\nlet a = 1;\n```\n", "plain words"];

function randomString(next: () => number): string {
  const n = 1 + Math.floor(next() * 6);
  let s = "";
  for (let k = 0; k < n; k++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** Core's answer: the call written by the simulator as a model following the tool instructions would. */
function scriptCall(content: string): void {
  gw.sim.enqueue({ scenario: "tool-call", params: { name: "Write", args: JSON.stringify({ file_path: "src/x.txt", content }) } });
}

/** The svcml block of the last prompt core received, read back with the request's schema. */
function promptArgs(): Record<string, unknown> {
  const prompt = gw.prompts().at(-1)!;
  const start = prompt.lastIndexOf("<|svcml|tool_calls>");
  const end = prompt.indexOf("</|svcml|tool_calls>", start) + "</|svcml|tool_calls>".length;
  expect(start).toBeGreaterThanOrEqual(0);
  const d = new SvcmlDetector({ tools: schemaLookup([{ name: "Write", parameters: SCHEMA }]) });
  const evs = [...d.push(prompt.slice(start, end)), ...d.flush()];
  return JSON.parse(evs.map((e) => (e.type === "call_args" ? e.fragment : "")).join(""));
}

const post = (path: string, json: unknown) => gw.t.req(path, { method: "POST", headers: gw.auth, json });
const dataLines = (body: string) => body.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6)));

interface Surface {
  name: string;
  /** The call's arguments as the client sees them, non-stream and stream. */
  call(stream: boolean): Promise<Record<string, unknown>>;
  /** Sends the call back in the history with a result. */
  history(args: Record<string, unknown>): Promise<void>;
}

const surfaces: Surface[] = [
  {
    name: "chat completions",
    async call(stream) {
      const r = await post("/v1/chat/completions", { model: "core-v4-flash", stream, messages: [{ role: "user", content: "write it" }], tools: [{ type: "function", function: { name: "Write", parameters: SCHEMA } }] });
      if (!stream) return JSON.parse((await r.json()).choices[0].message.tool_calls[0].function.arguments);
      const args = dataLines(await r.text()).flatMap((c) => c.choices?.[0]?.delta?.tool_calls ?? []).map((t: any) => t.function?.arguments ?? "").join("");
      return JSON.parse(args);
    },
    async history(args) {
      const r = await post("/v1/chat/completions", {
        model: "core-v4-flash",
        tools: [{ type: "function", function: { name: "Write", parameters: SCHEMA } }],
        messages: [
          { role: "user", content: "write it" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "Write", arguments: JSON.stringify(args) } }] },
          { role: "tool", tool_call_id: "call_1", content: "done" },
        ],
      });
      expect(r.status).toBe(200);
    },
  },
  {
    name: "responses",
    async call(stream) {
      const r = await post("/v1/responses", { model: "core-v4-flash", stream, input: "write it", tools: [{ type: "function", name: "Write", parameters: SCHEMA }] });
      if (!stream) return JSON.parse((await r.json()).output.find((i: any) => i.type === "function_call").arguments);
      const events = dataLines(await r.text());
      const deltas = events.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta).join("");
      const done = events.find((e) => e.type === "response.function_call_arguments.done").arguments;
      expect(deltas).toBe(done);
      return JSON.parse(done);
    },
    async history(args) {
      const r = await post("/v1/responses", {
        model: "core-v4-flash",
        tools: [{ type: "function", name: "Write", parameters: SCHEMA }],
        input: [
          { type: "message", role: "user", content: "write it" },
          { type: "function_call", call_id: "call_1", name: "Write", arguments: JSON.stringify(args) },
          { type: "function_call_output", call_id: "call_1", output: "done" },
        ],
      });
      expect(r.status).toBe(200);
    },
  },
  {
    name: "messages",
    async call(stream) {
      const r = await post("/v1/messages", { model: "core-v4-flash", max_tokens: 1000, stream, messages: [{ role: "user", content: "write it" }], tools: [{ name: "Write", input_schema: SCHEMA }] });
      if (!stream) return (await r.json()).content.find((b: any) => b.type === "tool_use").input;
      const json = dataLines(await r.text()).filter((e) => e.type === "content_block_delta" && e.delta.type === "input_json_delta").map((e) => e.delta.partial_json).join("");
      return JSON.parse(json);
    },
    async history(args) {
      const r = await post("/v1/messages", {
        model: "core-v4-flash",
        max_tokens: 1000,
        tools: [{ name: "Write", input_schema: SCHEMA }],
        messages: [
          { role: "user", content: "write it" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Write", input: args }] },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done" }] },
        ],
      });
      expect(r.status).toBe(200);
    },
  },
  {
    name: "generate-content",
    async call(stream) {
      const action = stream ? "streamGenerateContent?alt=sse" : "generateContent";
      const r = await post(`/v1beta/models/core-v4-flash:${action}`, { contents: [{ role: "user", parts: [{ text: "write it" }] }], tools: [{ functionDeclarations: [{ name: "Write", parameters: SCHEMA }] }] });
      const chunks = stream ? dataLines(await r.text()) : [await r.json()];
      const call = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).find((p: any) => p.functionCall);
      return call.functionCall.args;
    },
    async history(args) {
      const r = await post("/v1beta/models/core-v4-flash:generateContent", {
        tools: [{ functionDeclarations: [{ name: "Write", parameters: SCHEMA }] }],
        contents: [
          { role: "user", parts: [{ text: "write it" }] },
          { role: "model", parts: [{ functionCall: { name: "Write", args } }] },
          { role: "user", parts: [{ functionResponse: { name: "Write", response: { result: "done" } } }] },
        ],
      });
      expect(r.status).toBe(200);
    },
  },
];

describe("string arguments survive the whole round trip, byte for byte", () => {
  for (const s of surfaces) {
    test(`${s.name}: random strings → core → client (stream and not) → history → core's prompt`, async () => {
      const next = rng(s.name.length * 7919);
      for (let k = 0; k < 12; k++) {
        const content = randomString(next);
        for (const stream of [false, true]) {
          scriptCall(content);
          const args = await s.call(stream);
          expect(args).toEqual({ file_path: "src/x.txt", content });
        }
        await s.history({ file_path: "src/x.txt", content });
        expect(promptArgs()).toEqual({ file_path: "src/x.txt", content });
      }
    });
  }
});
