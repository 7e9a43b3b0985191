// Issue 16 item 2 (D9.3): the generate-content keep-alive must be skipped by the SSE parser of the Google SDK
// bundled in Gemini CLI (read from the installed bundle) and by @google/genai (the project's own copy, run
// against a loopback server). Both are fed the bodies the gateway writes: the opening keep-alive, idle
// keep-alives between events, one split across writes, one at the very end.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { GoogleGenAI } from "@google/genai";
import { KEEPALIVE_BLANK, KEEPALIVE_COMMENT, dataFrame } from "../../src/http/sse";
import { bundledGeminiParser } from "./helpers/bundled-genai-parser";
import { announceSkip, clientsInstalled } from "./helpers/paths";

announceSkip("the Gemini CLI bundled SSE parser test");

const chunk = (text: string) => ({ candidates: [{ content: { role: "model", parts: [{ text }] }, index: 0 }] });
const K = KEEPALIVE_BLANK;
// Each inner array is one body; each string one write (one network chunk).
const BODIES: Record<string, string[]> = {
  "opening keep-alive, then events": [K, dataFrame(chunk("a")), dataFrame(chunk("b"))],
  "keep-alives between events and at the end": [K, dataFrame(chunk("a")), K, K, dataFrame(chunk("b")), K],
  "a keep-alive glued to an event in one write": [K + dataFrame(chunk("a")) + K, dataFrame(chunk("b")) + K],
  "a keep-alive split across writes": [dataFrame(chunk("a")) + "\n", "\n", dataFrame(chunk("b"))],
};

function responseOf(writes: string[]): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const w of writes) c.enqueue(enc.encode(w));
      c.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

const textOf = (r: any) => r?.candidates?.[0]?.content?.parts?.[0]?.text;

describe.skipIf(!clientsInstalled)("SSE parser of the Google SDK bundled in Gemini CLI", () => {
  test("parses every event around the generate-content keep-alive", async () => {
    const { parser } = bundledGeminiParser();
    for (const [name, writes] of Object.entries(BODIES)) {
      const got: unknown[] = [];
      for await (const r of parser(responseOf(writes))) got.push(textOf(await r.json()));
      expect({ name, got }).toEqual({ name, got: ["a", "b"] });
    }
  });

  test("why not a comment: after `: keep-alive` the bundled parser matches nothing more", async () => {
    const { parser, regex } = bundledGeminiParser();
    expect(regex).toContain("^\\s*data: ");
    const got: unknown[] = [];
    let error = "";
    try {
      for await (const r of parser(responseOf([dataFrame(chunk("a")), KEEPALIVE_COMMENT, dataFrame(chunk("b"))]))) got.push(textOf(await r.json()));
    } catch (e) {
      error = String(e);
    }
    expect(got).toEqual(["a"]);
    expect(error).toContain("Incomplete JSON segment");
  });
});

describe("@google/genai stream parser", () => {
  let server: ReturnType<typeof Bun.serve>;
  let current: string[] = [];
  beforeAll(() => {
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => responseOf(current) });
  });
  afterAll(() => server.stop(true));

  test("yields every event around the generate-content keep-alive", async () => {
    const genai = new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: `http://127.0.0.1:${server.port}` } });
    for (const [name, writes] of Object.entries(BODIES)) {
      current = writes;
      const got: unknown[] = [];
      for await (const r of await genai.models.generateContentStream({ model: "m", contents: "hi" })) got.push(r.text);
      expect({ name, got }).toEqual({ name, got: ["a", "b"] });
    }
  });
});
