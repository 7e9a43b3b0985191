// The raw test client (tests/helpers/sim.ts) against a live simulator, plus what that client makes easy
// to check end to end: preset account tokens, the demo model's tool call and tool-result answers over a
// socket, the exact lines of the default thinking stream, and the INCOMPLETE tail of the default
// incomplete-continue round (status op omitted after the elapsed_secs SET).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { paramBody, svcmlCall } from "../../src/sim/demo-model";
import type { CoreSimulator } from "../../src/sim/index";
import { dataPayloads, RawCore, startTestSimulator, TEST_ACCOUNTS } from "../helpers/sim";
import { reduceRounds } from "./reduce";
import { MARKER_USER as U, MARKER_ASSISTANT as A, MARKER_END_INSTRUCTIONS as EOI, MARKER_EOS as EOS, MARKER_TOOL as T, MARKER_END_TOOL_RESULTS as ET, MARKER_BOS, MARKER_SYSTEM } from "../../src/prompt/markers";
const SYS = MARKER_BOS + MARKER_SYSTEM;

const SCHEMA = { type: "object", properties: { path: { type: "string" }, limit: { type: "number" }, recursive: { type: "boolean" }, note: { type: "string" } }, required: ["path", "limit", "recursive"] };
const TOOL_BLOCK = `You may call these tools.\n\nTool: list_dir\nDescription: lists a directory\nParameters: ${JSON.stringify(SCHEMA)}`;

let sim: CoreSimulator;
let c: RawCore;
beforeAll(async () => {
  sim = await startTestSimulator({ accounts: [...TEST_ACCOUNTS, { email: "preset@sim.test", password: "pw3", token: "preset-token-1" }] });
  c = new RawCore(sim.url);
  await c.loginAs(TEST_ACCOUNTS[0]!);
});
beforeEach(() => sim.reset());
afterAll(() => sim.stop());

describe("raw client", () => {
  test("loginAs works for email and mobile accounts; a wrong password throws", async () => {
    const m = new RawCore(sim.url);
    expect(await m.loginAs(TEST_ACCOUNTS[1]!)).toMatch(/^sim-[0-9a-f]{32}$/);
    await expect(m.loginAs({ email: "a@sim.test", password: "nope" })).rejects.toThrow("login failed");
  });

  test("solvePow answers a challenge the simulator accepts; completionText returns the raw body", async () => {
    const s = await c.createSession();
    const body = await c.completionText(s, "hello", { pow: await c.solvePow() });
    expect(body.startsWith("event: ready\ndata: ")).toBe(true);
    expect(sim.requests({ path: "/api/v0/chat/completion" })[0]!.pow).toEqual({ valid: true, reason: "ok" });
  });
});

describe("preset account tokens", () => {
  test("a configured token is valid without a login, expires on demand, and comes back after a hard reset", async () => {
    const p = new RawCore(sim.url);
    p.token = "preset-token-1";
    expect((await p.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(200);
    expect(sim.requests({ path: "/api/v0/chat_session/create" }).at(-1)!.account).toBe("preset@sim.test");
    expect(sim.expireTokens("preset@sim.test")).toBe(1);
    expect((await p.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(401);
    sim.reset({ hard: true });
    expect((await p.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(200);
    // A hard reset forgets issued tokens: the client that logged in has to log in again.
    await c.loginAs(TEST_ACCOUNTS[0]!);
  });

  test("addAccount with a token registers it at runtime", async () => {
    sim.addAccount({ mobile: "13900139000", password: "x", token: "preset-token-2" });
    const p = new RawCore(sim.url);
    p.token = "preset-token-2";
    expect((await p.call("/api/v0/chat_session/create", { agent: "chat" })).status).toBe(200);
    expect(sim.requests({ path: "/api/v0/chat_session/create" }).at(-1)!.account).toBe("+8613900139000");
  });
});

describe("default streams, exact lines", () => {
  test("thinking on: THINK first token with p+o, pathless rest, elapsed SET, RESPONSE append with op, next patch without op, pathless after", async () => {
    const s = await c.createSession();
    const body = await c.completionText(s, `${U}Tell me about simulators please${A}`, { thinking: true });
    const lines = body.split("\n").filter((l) => l.startsWith("data: {\"p\":\"response/fragments") || l.startsWith('data: {"v":"'));
    const answer = 'You said: "Tell me about simulators please". This answer comes from the core simulator.';
    expect(lines).toContain('data: {"p":"response/fragments/-1/content","o":"APPEND","v":" "}');
    expect(body).toMatch(/data: \{"p":"response\/fragments\/-1\/elapsed_secs","o":"SET","v":[0-9.]+\}\n\n/);
    const append = lines.findIndex((l) => l.startsWith('data: {"p":"response/fragments","o":"APPEND","v":[{"id":'));
    expect(lines[append]).toMatch(/^data: \{"p":"response\/fragments","o":"APPEND","v":\[\{"id":\d+,"type":"RESPONSE","content":"You","references":\[\],"stage_id":1\}\]\}$/);
    expect(lines[append + 1]).toBe('data: {"p":"response/fragments/-1/content","v":" "}');
    expect(lines[append + 2]).toBe('data: {"v":"said:"}');
    expect(body).toContain('data: {"p":"response","o":"BATCH","v":[{"p":"accumulated_token_usage","v":');
    expect(body).toContain('{"p":"quasi_status","v":"FINISHED"}]}\n\ndata: {"p":"response/status","o":"SET","v":"FINISHED"}\n\n');
    expect(body).not.toContain("[DONE]");
    expect(reduceRounds([body]).answer).toBe(answer);
  });

  test("incomplete-continue with thinking off: quasi INCOMPLETE, elapsed SET, then the status without op; the continue finishes", async () => {
    sim.enqueue({ scenario: "incomplete-continue" });
    const s = await c.createSession();
    const r0 = await c.completionText(s, "long please", { thinking: false });
    expect(r0).toContain('{"p":"quasi_status","v":"INCOMPLETE"}]}\n\ndata: {"p":"response/fragments/-1/elapsed_secs","o":"SET","v":3.5}\n\ndata: {"p":"response/status","v":"INCOMPLETE"}\n\nevent: finish\n');
    const r1 = await (await c.continue(s, 2)).text();
    expect(r1.split("\n\n").slice(0, 3)).toEqual([expect.stringMatching(/^event: ready\n/), ": ", expect.stringMatching(/^event: update_session\n/)]);
    const red = reduceRounds([r0, r1]);
    expect(red.status).toBe("FINISHED");
    expect(red.answer).toBe("Part one of the answer aband the end.");
  });
});

describe("demo model over the socket", () => {
  test("a user turn that asks to call a declared tool gets an svcml call with plausible values", async () => {
    const s = await c.createSession();
    const prompt = `${SYS}${TOOL_BLOCK}${EOI}${U}Please call the directory tool${A}`;
    const red = reduceRounds([await c.completionText(s, prompt, { thinking: true })]);
    expect(red.thinking).toBe("The user wants me to call list_dir.");
    expect(red.answer).toBe(
      [
        "<|svcml|tool_calls>",
        '  <|svcml|invoke name="list_dir">',
        '    <|svcml|parameter name="path"><![CDATA[README.md]]></|svcml|parameter>',
        '    <|svcml|parameter name="limit">1</|svcml|parameter>',
        '    <|svcml|parameter name="recursive">true</|svcml|parameter>',
        "  </|svcml|invoke>",
        "</|svcml|tool_calls>",
      ].join("\n"),
    );
  });

  test("a question about tools is answered with text; a tool result is quoted", async () => {
    const s = await c.createSession();
    const q = reduceRounds([await c.completionText(s, `${SYS}${TOOL_BLOCK}${EOI}${U}which tools do you have?${A}`)]);
    expect(q.answer).toBe('You said: "which tools do you have?". This answer comes from the core simulator.');
    const s2 = await c.createSession();
    const prompt = `${SYS}${TOOL_BLOCK}${EOI}${U}use list_dir${A}<|svcml|tool_calls>…</|svcml|tool_calls>${EOS}${T}a.txt\nb.txt${ET}${A}`;
    const t = reduceRounds([await c.completionText(s2, prompt)]);
    expect(t.answer).toBe('The tool returned: "a.txt b.txt". (answer from the core simulator)');
  });

  test("the tool-call scenario: params name and args, non-string values as plain JSON", async () => {
    sim.enqueue({ scenario: "tool-call", params: { name: "edit", args: { path: "a.md", n: 2, flags: ["x"], opts: { dry: false }, raw: "42" } } });
    const s = await c.createSession();
    const red = reduceRounds([await c.completionText(s, "go")]);
    expect(red.answer).toBe(
      [
        "<|svcml|tool_calls>",
        '  <|svcml|invoke name="edit">',
        '    <|svcml|parameter name="path"><![CDATA[a.md]]></|svcml|parameter>',
        '    <|svcml|parameter name="n">2</|svcml|parameter>',
        '    <|svcml|parameter name="flags">["x"]</|svcml|parameter>',
        '    <|svcml|parameter name="opts">{"dry":false}</|svcml|parameter>',
        '    <|svcml|parameter name="raw"><![CDATA["42"]]></|svcml|parameter>',
        "  </|svcml|invoke>",
        "</|svcml|tool_calls>",
      ].join("\n"),
    );
  });
});

describe("svcml parameter bodies", () => {
  test("strings in CDATA (]]> split, literal-looking text quoted), JSON with < or & in CDATA, names attribute-escaped", () => {
    expect(paramBody("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
    expect(paramBody("true")).toBe('<![CDATA["true"]]>');
    expect(paramBody("truth")).toBe("<![CDATA[truth]]>");
    expect(paramBody(null)).toBe("null");
    expect(paramBody({ html: "<b>" })).toBe('<![CDATA[{"html":"<b>"}]]>');
    expect(svcmlCall('a"b', {})).toContain('<|svcml|invoke name="a&quot;b">');
  });

  test("dataPayloads parses every data line of a body", () => {
    expect(dataPayloads('event: ready\ndata: {"a":1}\n\n: \n\ndata: [DONE]\n\n')).toEqual([{ a: 1 }, "[DONE]"]);
  });
});
