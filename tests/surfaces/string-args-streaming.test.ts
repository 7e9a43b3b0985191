// A 50 KB file write streams to the client while core writes it (issue 29, svcml-and-prompts.md §2.5 condition S):
// core writes the first half of the value, then goes silent; the client must already hold argument bytes of the
// file's content, before core has written the rest. The silence is a gate, not a measured time: had the gateway
// held the value back, the first content bytes would only come with the end of the call.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startSimGateway, type SimGateway } from "../helpers/sim-gateway";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
beforeEach(() => gw.sim.reset());

const SCHEMA = { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } }, required: ["file_path", "content"] };
const FILE = Array.from({ length: 1000 }, (_, i) => `{"line": ${i}, "v": 1.0, "s": 'q'} <b>x</b>\n`).join("");
const HEAD = '<|svcml|tool_calls>\n  <|svcml|invoke name="Write">\n    <|svcml|parameter name="file_path"><![CDATA[data.jsonl]]></|svcml|parameter>\n    <|svcml|parameter name="content"><![CDATA[';
const TAIL = "]]></|svcml|parameter>\n  </|svcml|invoke>\n</|svcml|tool_calls>";

/** Core writes the head and half of the file in 100-character tokens, is silent for 60 s, then writes the rest. */
function scriptSlowWrite(): void {
  const half = FILE.length / 2;
  gw.sim.enqueue({
    script: {
      name: "slow-write",
      shape: "newer",
      rounds: [
        {
          steps: [
            { ready: {} },
            { update_session: {} },
            { snapshot: { answer: "" } },
            { answer: HEAD + FILE.slice(0, half), chunk: 100 },
            { sleep: 60_000 },
            { answer: FILE.slice(half) + TAIL, chunk: 100 },
            { usage: {} },
            { status: "FINISHED" },
            { close: {} },
          ],
        },
      ],
    },
  });
}

/** Reads SSE data lines until `seen` says enough, then leaves (the client goes away: core's request is aborted). */
async function readUntil(r: Response, seen: (events: any[]) => boolean): Promise<any[]> {
  const reader = r.body!.getReader();
  const dec = new TextDecoder();
  const events: any[] = [];
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.startsWith("data: {")) events.push(JSON.parse(line.slice(6)));
    }
    if (seen(events)) break;
  }
  await reader.cancel();
  return events;
}

const post = (path: string, json: unknown) => gw.t.req(path, { method: "POST", headers: gw.auth, json });
const FIRST_LINES = FILE.slice(0, 2000);

describe("a large string argument streams before core has finished writing it", () => {
  test("chat completions: argument deltas carry the file's first lines; the call has not ended", async () => {
    scriptSlowWrite();
    const r = await post("/v1/chat/completions", { model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "write it" }], tools: [{ type: "function", function: { name: "Write", parameters: SCHEMA } }] });
    const args = (evs: any[]) => evs.flatMap((e) => e.choices?.[0]?.delta?.tool_calls ?? []).map((t: any) => t.function?.arguments ?? "").join("");
    const events = await readUntil(r, (evs) => args(evs).length > 2100);
    const text = args(events);
    expect(text.startsWith('{"file_path":"data.jsonl","content":"')).toBe(true);
    expect(JSON.parse(`"${text.slice('{"file_path":"data.jsonl","content":"'.length, text.lastIndexOf("\\n") + 2)}"`).startsWith(FIRST_LINES)).toBe(true);
    expect(events.some((e) => e.choices?.[0]?.finish_reason)).toBe(false);
  }, 30_000);

  test("responses: function_call_arguments.delta events before the call is done", async () => {
    scriptSlowWrite();
    const r = await post("/v1/responses", { model: "core-v4-flash", stream: true, input: "write it", tools: [{ type: "function", name: "Write", parameters: SCHEMA }] });
    const args = (evs: any[]) => evs.filter((e) => e.type === "response.function_call_arguments.delta").map((e) => e.delta).join("");
    const events = await readUntil(r, (evs) => args(evs).length > 2100);
    expect(args(events)).toContain(JSON.stringify(FIRST_LINES).slice(1, -1));
    expect(events.some((e) => e.type === "response.function_call_arguments.done")).toBe(false);
  }, 30_000);

  test("messages: input_json_delta events before the block stops", async () => {
    scriptSlowWrite();
    const r = await post("/v1/messages", { model: "core-v4-flash", max_tokens: 4000, stream: true, messages: [{ role: "user", content: "write it" }], tools: [{ name: "Write", input_schema: SCHEMA }] });
    const args = (evs: any[]) => evs.filter((e) => e.type === "content_block_delta" && e.delta.type === "input_json_delta").map((e) => e.delta.partial_json).join("");
    const events = await readUntil(r, (evs) => args(evs).length > 2100);
    expect(args(events)).toContain(JSON.stringify(FIRST_LINES).slice(1, -1));
    expect(events.some((e) => e.type === "message_delta")).toBe(false);
  }, 30_000);

  test("the client leaving mid-value frees the account: the next request is served", async () => {
    scriptSlowWrite();
    const r = await post("/v1/chat/completions", { model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "write it" }], tools: [{ type: "function", function: { name: "Write", parameters: SCHEMA } }] });
    await readUntil(r, (evs) => evs.length > 3);
    const next = await post("/v1/chat/completions", { model: "core-v4-flash", messages: [{ role: "user", content: "hello" }] });
    expect(next.status).toBe(200);
  }, 30_000);
});
