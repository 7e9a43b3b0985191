// Issue 18 item 3: one bad value per schema field, sent over a socket to every business route that has a body
// schema; each answer is 400 invalid_request in the surface's own shape with the dotted `param` of D4.3.
// Core is unreachable: a request that passed validation would fail differently (and never with these params).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";

let g: LiveGateway;
beforeAll(async () => {
  g = await startLiveGateway({ env: { SVC_CORE_BASE_URL: "http://127.0.0.1:9" } });
});
afterAll(() => g.stop());

type Shape = "chat" | "messages" | "generate";

interface Case {
  name: string;
  body: unknown;
  param: string;
}

const user = { role: "user", content: "hi" };

const CHAT: Case[] = [
  { name: "messages missing", body: { model: "gpt-4o" }, param: "messages" },
  { name: "messages not an array", body: { model: "gpt-4o", messages: "hi" }, param: "messages" },
  { name: "messages empty", body: { model: "gpt-4o", messages: [] }, param: "messages" },
  { name: "a message not an object", body: { model: "gpt-4o", messages: [42] }, param: "messages.0" },
  { name: "role missing", body: { model: "gpt-4o", messages: [user, { content: "b" }] }, param: "messages.1.role" },
  { name: "role empty", body: { model: "gpt-4o", messages: [{ role: "", content: "b" }] }, param: "messages.0.role" },
  { name: "tool_calls not an array", body: { model: "gpt-4o", messages: [{ role: "assistant", tool_calls: {} }] }, param: "messages.0.tool_calls" },
  { name: "model missing", body: { messages: [user] }, param: "model" },
  { name: "model not a string", body: { model: 4, messages: [user] }, param: "model" },
];

const RESPONSES: Case[] = [
  { name: "messages not an array", body: { model: "gpt-4o", messages: "x" }, param: "messages" },
  { name: "a message without role", body: { model: "gpt-4o", messages: [{ content: "x" }] }, param: "messages.0.role" },
  { name: "instructions not a string", body: { model: "gpt-4o", input: "q", instructions: 5 }, param: "instructions" },
  { name: "input a number", body: { model: "gpt-4o", input: 5 }, param: "input" },
  { name: "an input item null", body: { model: "gpt-4o", input: [null] }, param: "input.0" },
  // Issue 30 item 7: a message item's role and content are checked like the other surfaces' messages.
  { name: "an input message's role a number", body: { model: "gpt-4o", input: [{ role: 5, content: "x" }] }, param: "input.0.role" },
  { name: "a later input message's role empty", body: { model: "gpt-4o", input: ["a", { type: "message", role: "", content: "x" }] }, param: "input.1.role" },
  { name: "a type:message item without role", body: { model: "gpt-4o", input: [{ type: "message", content: "x" }] }, param: "input.0.role" },
  { name: "input one message object without content", body: { model: "gpt-4o", input: { role: "user" } }, param: "input.content" },
  { name: "input one message object with role a number", body: { model: "gpt-4o", input: { role: 5, content: "x" } }, param: "input.role" },
  { name: "an input message's content a number", body: { model: "gpt-4o", input: [{ role: "user", content: 7 }] }, param: "input.0.content" },
  { name: "model missing", body: { input: "q" }, param: "model" },
];

const MESSAGES: Case[] = [
  { name: "messages missing", body: { model: "claude-x" }, param: "messages" },
  { name: "a message not an object", body: { model: "claude-x", messages: [7] }, param: "messages.0" },
  { name: "role unknown", body: { model: "claude-x", messages: [{ role: "robot", content: "x" }] }, param: "messages.0.role" },
  { name: "content missing", body: { model: "claude-x", messages: [{ role: "user" }] }, param: "messages.0.content" },
  { name: "system message content a number", body: { model: "claude-x", messages: [user, { role: "system", content: 3 }] }, param: "messages.1.content" },
  { name: "a content block not an object", body: { model: "claude-x", messages: [{ role: "user", content: [5] }] }, param: "messages.0.content.0" },
  { name: "system a number", body: { model: "claude-x", system: 3, messages: [user] }, param: "system" },
  { name: "model missing", body: { messages: [user] }, param: "model" },
];

const COUNT_TOKENS: Case[] = [
  { name: "model missing", body: { messages: [user] }, param: "model" },
  { name: "messages not an array", body: { model: "claude-x", messages: {} }, param: "messages" },
  { name: "role unknown", body: { model: "claude-x", messages: [{ role: "bot", content: "x" }] }, param: "messages.0.role" },
];

const GENERATE: Case[] = [
  { name: "contents missing", body: {}, param: "contents" },
  { name: "contents not an array", body: { contents: "x" }, param: "contents" },
  { name: "an entry not an object", body: { contents: ["x"] }, param: "contents.0" },
  { name: "role unknown", body: { contents: [{ role: "robot", parts: [] }] }, param: "contents.0.role" },
  { name: "parts not an array", body: { contents: [{ role: "user", parts: "x" }] }, param: "contents.0.parts" },
  { name: "a part not an object", body: { contents: [{ role: "user", parts: [1] }] }, param: "contents.0.parts.0" },
];

const EMBEDDINGS: Case[] = [
  { name: "model missing", body: { input: "x" }, param: "model" },
  { name: "input missing", body: { model: "text-embedding-3-small" }, param: "input" },
  { name: "input an empty list", body: { model: "text-embedding-3-small", input: [] }, param: "input" },
  { name: "input a number", body: { model: "text-embedding-3-small", input: 5 }, param: "input" },
  { name: "dimensions 0", body: { model: "text-embedding-3-small", input: "x", dimensions: 0 }, param: "dimensions" },
  { name: "dimensions 4097", body: { model: "text-embedding-3-small", input: "x", dimensions: 4097 }, param: "dimensions" },
  { name: "dimensions fractional", body: { model: "text-embedding-3-small", input: "x", dimensions: 1.5 }, param: "dimensions" },
  { name: "encoding_format unknown", body: { model: "text-embedding-3-small", input: "x", encoding_format: "hex" }, param: "encoding_format" },
];

const ROUTES: { path: string; shape: Shape; cases: Case[] }[] = [
  { path: "/v1/chat/completions", shape: "chat", cases: CHAT },
  { path: "/chat/completions", shape: "chat", cases: CHAT.slice(0, 2) },
  { path: "/v1/responses", shape: "chat", cases: RESPONSES },
  { path: "/responses", shape: "chat", cases: RESPONSES.slice(0, 1) },
  { path: "/v1/embeddings", shape: "chat", cases: EMBEDDINGS },
  { path: "/embeddings", shape: "chat", cases: EMBEDDINGS.slice(0, 1) },
  { path: "/msgapi/v1/messages", shape: "messages", cases: MESSAGES },
  { path: "/v1/messages", shape: "messages", cases: MESSAGES.slice(0, 2) },
  { path: "/messages", shape: "messages", cases: MESSAGES.slice(0, 2) },
  { path: "/msgapi/v1/messages/count_tokens", shape: "messages", cases: COUNT_TOKENS },
  { path: "/v1/messages/count_tokens", shape: "messages", cases: COUNT_TOKENS.slice(0, 1) },
  { path: "/v1beta/models/gemini-2.5-flash:generateContent", shape: "generate", cases: GENERATE },
  { path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent", shape: "generate", cases: GENERATE.slice(0, 2) },
  { path: "/v1beta/models/gemini-2.5-flash:countTokens", shape: "generate", cases: GENERATE.slice(0, 2) },
  { path: "/v1/models/gemini-2.5-flash:generateContent", shape: "generate", cases: GENERATE.slice(0, 2) },
];

function errorOf(shape: Shape, body: any): { code: string; param: string | null; message: string } {
  if (shape === "messages") {
    expect(body.type).toBe("error");
    expect(body.error.type).toBe("invalid_request_error");
    return body.error;
  }
  if (shape === "generate") {
    expect(body.error.code).toBe(400);
    expect(body.error.status).toBe("INVALID_ARGUMENT");
    // The generate shape has no param; the reason carries the code and the message names the field.
    return { code: body.error.details[0].reason, param: null, message: body.error.message };
  }
  expect(body.error.type).toBe("invalid_request_error");
  return body.error;
}

for (const route of ROUTES) {
  describe(`POST ${route.path}: one bad value per field → 400 invalid_request`, () => {
    test.each(route.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      const r = await fetch(g.url + route.path, {
        method: "POST",
        headers: { Authorization: "Bearer pass-through-token", "Content-Type": "application/json" },
        body: JSON.stringify(c.body),
      });
      expect(r.status).toBe(400);
      expect(r.headers.get("x-request-id")).toBeTruthy();
      const err = errorOf(route.shape, await r.json());
      expect(err.code).toBe("invalid_request");
      if (route.shape === "generate") expect(err.message.startsWith(`${c.param} `)).toBe(true);
      else expect(err.param).toBe(c.param);
      // The message names the field and what was expected, never Elysia's internal wording.
      expect(err.message).toStartWith(c.param);
      expect(err.message).not.toContain("Expected union value");
    });
  });
}

describe("validation comes after authentication and before any core call", () => {
  test("no credential and a bad body → 401, not 400", async () => {
    const r = await fetch(g.url + "/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: "x" }) });
    expect(r.status).toBe(401);
    expect((await r.json()).error.code).toBe("missing_credentials");
  });

  test("an unknown generate action → 404 before the credential is asked for", async () => {
    const r = await fetch(g.url + "/v1beta/models/gemini-2.5-flash:explode", { method: "POST", body: "{}" });
    expect(r.status).toBe(404);
    expect((await r.json()).error.status).toBe("NOT_FOUND");
  });

  test("unknown fields are kept: a valid body with extras is not refused by the schema", async () => {
    const r = await fetch(g.url + "/v1/messages/count_tokens", {
      method: "POST",
      headers: { "x-api-key": "pass-through-token" },
      body: JSON.stringify({ model: "claude-x", messages: [user], metadata: { user_id: "u" }, anything: [1, 2] }),
    });
    expect(r.status).toBe(200);
    expect((await r.json()).input_tokens).toBeGreaterThan(0);
  });

  test("the message says what was expected", async () => {
    const r = await fetch(g.url + "/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "t" },
      body: JSON.stringify({ model: "claude-x", messages: [{ role: "robot", content: "x" }] }),
    });
    expect((await r.json()).error.message).toBe('messages.0.role must be one of "user", "assistant", "system".');
  });
});
