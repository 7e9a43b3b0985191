// Issue 16 item 1: system messages anywhere in the conversation, on every surface, through the real app and
// the simulator. Core must receive the text as a system block at that point of the conversation.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import { startSimGateway, SIM_KEY, type SimGateway } from "../helpers/sim-gateway";

const SYS = "<｜System｜>";
const EOI = "<｜end▁of▁instructions｜>";
const USER = "<｜User｜>";
const ASSISTANT = "<｜Assistant｜>";

let gw: SimGateway;
beforeAll(async () => {
  gw = await startSimGateway();
});
afterAll(() => gw.stop());
beforeEach(() => gw.sim.reset());

const post = (path: string, json: unknown, headers: Record<string, string> = {}) => gw.t.req(path, { method: "POST", headers: { ...gw.auth, ...headers }, json });
const lastPrompt = () => gw.prompts().at(-1) ?? "";

describe("messages protocol (Claude Code with mid-conversation-system-2026-04-07)", () => {
  const claudeCodeBody = (stream: boolean) => ({
    model: "claude-opus-4-8",
    max_tokens: 1024,
    stream,
    system: [{ type: "text", text: "You are Claude Code." }],
    messages: [
      { role: "user", content: [{ type: "text", text: "hello there" }] },
      { role: "system", content: [{ type: "text", text: "Output style: concise." }] },
    ],
  });

  test("non-stream: 200, and the system message is a system block after the question", async () => {
    const r = await post("/msgapi/v1/messages", claudeCodeBody(false), { "anthropic-beta": "mid-conversation-system-2026-04-07" });
    expect(r.status).toBe(200);
    expect((await r.json()).type).toBe("message");
    const p = lastPrompt();
    expect(p).toContain(`${USER}hello there${SYS}Output style: concise.${EOI}${ASSISTANT}`);
    expect(p.indexOf("You are Claude Code.")).toBeLessThan(p.indexOf(USER));
  });

  test("stream: 200 with a complete event stream", async () => {
    const r = await post("/v1/messages", claudeCodeBody(true), { "anthropic-beta": "mid-conversation-system-2026-04-07" });
    expect(r.status).toBe(200);
    const body = await r.text();
    expect(body).toContain("event: message_stop");
    expect(lastPrompt()).toContain(`${SYS}Output style: concise.${EOI}`);
  });

  test("count_tokens takes the same conversation", async () => {
    const r = await post("/msgapi/v1/messages/count_tokens", claudeCodeBody(false));
    expect(r.status).toBe(200);
    expect((await r.json()).input_tokens).toBeGreaterThan(0);
  });

  test("a role no surface defines is still 400 in the messages shape", async () => {
    const r = await post("/msgapi/v1/messages", { model: "claude-opus-4-8", messages: [{ role: "robot", content: "x" }] });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.type).toBe("error");
    expect(body.error.param).toBe("messages.0.role");
  });

  test("@anthropic-ai/sdk: a SystemMessageParam between turns", async () => {
    const client = new Anthropic({ baseURL: `${gw.url}/msgapi`, apiKey: SIM_KEY, maxRetries: 0 });
    const m = await client.messages.create({
      model: "claude-sonnet-5",
      max_tokens: 256,
      messages: [
        { role: "user", content: "first question" },
        { role: "assistant", content: "first answer" },
        { role: "system", content: "From now on answer in French." },
        { role: "user", content: "second question" },
      ],
    });
    expect(m.type).toBe("message");
    expect(lastPrompt()).toContain(`first answer<｜end▁of▁sentence｜>${SYS}From now on answer in French.${EOI}${USER}second question`);
  });
});

describe("the other surfaces", () => {
  test("chat: a developer message between turns", async () => {
    const r = await post("/v1/chat/completions", {
      model: "core-v4-flash",
      messages: [
        { role: "user", content: "q1" },
        { role: "assistant", content: "a1" },
        { role: "developer", content: "dev note" },
        { role: "user", content: "q2" },
      ],
    });
    expect(r.status).toBe(200);
    expect(lastPrompt()).toContain(`${SYS}dev note${EOI}${USER}q2`);
  });

  test("responses: a developer input item between turns", async () => {
    const r = await post("/v1/responses", {
      model: "core-v4-flash",
      instructions: "top",
      input: [
        { role: "user", content: "q1" },
        { type: "message", role: "developer", content: [{ type: "input_text", text: "dev item" }] },
      ],
    });
    expect(r.status).toBe(200);
    expect(lastPrompt()).toContain(`${USER}q1${SYS}dev item${EOI}${ASSISTANT}`);
  });

  test("generate-content: systemInstruction plus a role system entry", async () => {
    const r = await post("/v1beta/models/core-v4-flash:generateContent", {
      systemInstruction: { parts: [{ text: "top" }] },
      contents: [
        { role: "user", parts: [{ text: "q1" }] },
        { role: "system", parts: [{ text: "entry note" }] },
      ],
    });
    expect(r.status).toBe(200);
    const p = lastPrompt();
    expect(p).toContain(`${USER}q1${SYS}entry note${EOI}${ASSISTANT}`);
    expect(p.indexOf("top")).toBeLessThan(p.indexOf(USER));
  });
});
