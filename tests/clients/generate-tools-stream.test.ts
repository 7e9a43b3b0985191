// Issue 29 (D10.6 as amended): on the generate-content protocol a request that declares tools still streams
// its text as coalesced chunks; only the functionCall parts wait for the final chunk. Read by @google/genai
// (the project's devDependency) against the real app and the simulator over real sockets, and by the SSE
// parser bundled in Gemini CLI (taken from the installed bundle; that part is skipped without
// tests/clients/node_modules, so it runs in the clients step of CI).
// Core writes its bytes cut at seeded random points, and the bundled parser is fed the gateway's body one
// byte per network chunk.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { GoogleGenAI, Type, type Tool } from "@google/genai";
import { startSimGateway, SIM_KEY, type SimGateway } from "../helpers/sim-gateway";
import { bundledGeminiParser } from "./helpers/bundled-genai-parser";
import { announceSkip, clientsInstalled } from "./helpers/paths";
import type { ScenarioScript, Step } from "../../src/sim/index";

announceSkip("the Gemini CLI bundled-parser part of the generate-content tools stream test");

let g: SimGateway;
let genai: GoogleGenAI;
beforeAll(async () => {
  g = await startSimGateway();
  genai = new GoogleGenAI({ apiKey: SIM_KEY, httpOptions: { baseUrl: g.url } });
});
beforeEach(() => {
  g.sim.reset();
  g.sim.set({ write: "random" });
});
afterAll(() => g.stop());

/** 600 characters of prose in words (core streams it a word per token). */
const LONG = Array.from({ length: 120 }, (_, i) => `w${String(i).padStart(3, "0")}`).join(" ").padEnd(600, ".");
const CALL = [
  "<|svcml|tool_calls>",
  '  <|svcml|invoke name="get_weather">',
  "    <|svcml|parameter name=\"city\"><![CDATA[Paris]]></|svcml|parameter>",
  "  </|svcml|invoke>",
  '  <|svcml|invoke name="get_time">',
  "    <|svcml|parameter name=\"zone\"><![CDATA[CET]]></|svcml|parameter>",
  "  </|svcml|invoke>",
  "</|svcml|tool_calls>",
].join("\n");
const TOOLS: Tool[] = [
  {
    functionDeclarations: [
      { name: "get_weather", description: "Weather", parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ["city"] } },
      { name: "get_time", description: "Time", parameters: { type: Type.OBJECT, properties: { zone: { type: Type.STRING } }, required: ["zone"] } },
    ],
  },
];

/**
 * Core writes `text` in six pieces with a pause after each, as a model writes a long answer. Without the
 * pauses every token arrives in one read and the gateway merges a read's text before coalescing (that is one
 * chunk with or without tools); the pauses make each piece a read of its own, so chunking is the gateway's.
 * `think` pieces come first, as reasoning; `end` closes the answer normally or breaks the connection.
 */
function paced(opts: { answer: string; think?: string; tail?: string; end: "finished" | "broken" }): ScenarioScript {
  const pieces = (t: string) => Array.from({ length: 6 }, (_, i) => t.slice((i * t.length) / 6, ((i + 1) * t.length) / 6));
  const steps: Step[] = [{ ready: {} }, { update_session: {} }, { snapshot: {} }];
  for (const p of pieces(opts.think ?? "")) if (p) steps.push({ think: p, chunk: "whole" }, { sleep: 120 });
  if (opts.think) steps.push({ think_end: { elapsed_secs: 1.5 } });
  for (const p of pieces(opts.answer)) steps.push({ answer: p, chunk: "whole" }, { sleep: 120 });
  if (opts.tail) steps.push({ answer: opts.tail });
  if (opts.end === "broken") steps.push({ raw: 'data: {"v":" brok' }, { eof: "abrupt" });
  else steps.push({ usage: {} }, { status: "FINISHED" }, { update_session: {} }, { close: {} });
  return { name: "paced", shape: "newer", rounds: [{ steps }] };
}

type Part = { text?: string; thought?: boolean; functionCall?: { name?: string; args?: unknown } };
type Chunk = { candidates?: { content?: { parts?: Part[] }; finishReason?: string }[]; error?: unknown };
const partsOf = (c: Chunk): Part[] => c.candidates?.[0]?.content?.parts ?? [];

/** What a stream of chunks shows: the text chunks, the calls, and in which chunk each came. */
function shape(chunks: Chunk[]) {
  const textChunks = chunks.filter((c) => partsOf(c).some((p) => p.text && !p.thought));
  const callChunks = chunks.filter((c) => partsOf(c).some((p) => p.functionCall));
  return {
    text: textChunks.map((c) => partsOf(c).map((p) => (p.thought ? "" : (p.text ?? ""))).join("")).join(""),
    textChunks: textChunks.length,
    callChunkIndexes: callChunks.map((c) => chunks.indexOf(c)),
    calls: callChunks.flatMap((c) => partsOf(c).flatMap((p) => (p.functionCall ? [p.functionCall] : []))),
    finishIndexes: chunks.flatMap((c, i) => (c.candidates?.[0]?.finishReason ? [i] : [])),
  };
}

describe("@google/genai: generateContentStream with tools", () => {
  test("a 600-character answer arrives in many text chunks; both functionCall parts come together in the final chunk", async () => {
    g.sim.enqueue({ script: paced({ answer: LONG, tail: `\n\n${CALL}`, end: "finished" }) });
    const chunks: Chunk[] = [];
    for await (const c of await genai.models.generateContentStream({ model: "gemini-2.5-flash-nothinking", contents: "weather and time, please", config: { tools: TOOLS } }))
      chunks.push(c as Chunk);
    const s = shape(chunks);
    expect(s.text.trimEnd()).toBe(LONG);
    // Six pieces a pause apart: each reaches the client as a chunk of its own (or more, at 128 characters).
    expect(s.textChunks).toBeGreaterThanOrEqual(6);
    expect(s.calls).toEqual([
      { name: "get_weather", args: { city: "Paris" } },
      { name: "get_time", args: { zone: "CET" } },
    ]);
    expect(s.callChunkIndexes).toEqual([chunks.length - 1]);
    expect(s.finishIndexes).toEqual([chunks.length - 1]);
  });

  test("the same answer without tools streams its text the same way (the final chunk holds no call)", async () => {
    g.sim.enqueue({ script: paced({ answer: LONG, end: "finished" }) });
    const chunks: Chunk[] = [];
    for await (const c of await genai.models.generateContentStream({ model: "gemini-2.5-flash-nothinking", contents: "a long answer" })) chunks.push(c as Chunk);
    const s = shape(chunks);
    expect(s.text).toBe(LONG);
    expect(s.textChunks).toBeGreaterThanOrEqual(6);
    expect(s.calls).toEqual([]);
  });

  test("thought parts stream with tools too, before the text", async () => {
    g.sim.enqueue({ script: paced({ think: LONG, answer: "Done.", tail: `\n\n${CALL}`, end: "finished" }) });
    const chunks: Chunk[] = [];
    const stream = await genai.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents: "think, then call",
      config: { tools: TOOLS, thinkingConfig: { includeThoughts: true } },
    });
    for await (const c of stream) chunks.push(c as Chunk);
    const thoughtChunks = chunks.filter((c) => partsOf(c).some((p) => p.thought));
    expect(thoughtChunks.map((c) => partsOf(c).map((p) => p.text).join("")).join("")).toBe(LONG);
    expect(thoughtChunks.length).toBeGreaterThanOrEqual(6);
    expect(shape(chunks).text.trimEnd()).toBe("Done.");
    expect(shape(chunks).callChunkIndexes).toEqual([chunks.length - 1]);
  });

  test("core failing mid-answer: the partial text was shown before the error", async () => {
    g.sim.enqueue({ script: paced({ answer: LONG, end: "broken" }) });
    const chunks: Chunk[] = [];
    let error: unknown;
    try {
      const stream = await genai.models.generateContentStream({ model: "gemini-2.5-flash-nothinking", contents: "weather, please", config: { tools: TOOLS } });
      for await (const c of stream) chunks.push(c as Chunk);
    } catch (e) {
      error = e;
    }
    expect(String(error)).toContain("UNAVAILABLE");
    const s = shape(chunks);
    expect(s.text).toBe(LONG);
    expect(s.textChunks).toBeGreaterThanOrEqual(6);
    expect(s.calls).toEqual([]);
  });
});

/** The raw SSE body of a streamed generate-content request with tools. */
async function rawStream(contents: string): Promise<string> {
  const r = await fetch(`${g.url}/v1beta/models/gemini-2.5-flash-nothinking:streamGenerateContent?alt=sse`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-goog-api-key": SIM_KEY },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: contents }] }], tools: TOOLS }),
  });
  expect(r.status).toBe(200);
  return r.text();
}

/** A response whose body arrives one byte per chunk. */
function byteByByte(body: string): Response {
  const bytes = new TextEncoder().encode(body);
  let i = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(c) {
        if (i < bytes.length) c.enqueue(bytes.slice(i, ++i));
        else c.close();
      },
    }),
    { headers: { "Content-Type": "text/event-stream" } },
  );
}

describe.skipIf(!clientsInstalled)("the SSE parser bundled in Gemini CLI: generate-content with tools", () => {
  test("many text chunks, then the functionCall parts in the final chunk", async () => {
    g.sim.enqueue({ script: paced({ answer: LONG, tail: `\n\n${CALL}`, end: "finished" }) });
    const body = await rawStream("weather and time, please");
    const chunks: Chunk[] = [];
    for await (const r of bundledGeminiParser().parser(byteByByte(body))) chunks.push((await r.json()) as Chunk);
    const s = shape(chunks);
    expect(s.text.trimEnd()).toBe(LONG);
    expect(s.textChunks).toBeGreaterThanOrEqual(6);
    expect(s.calls.map((c) => c.name)).toEqual(["get_weather", "get_time"]);
    expect(s.callChunkIndexes).toEqual([chunks.length - 1]);
  });

  test("core failing mid-answer: the text chunks come before the error chunk", async () => {
    g.sim.enqueue({ script: paced({ answer: LONG, end: "broken" }) });
    const body = await rawStream("weather, please");
    const chunks: Chunk[] = [];
    for await (const r of bundledGeminiParser().parser(byteByByte(body))) chunks.push((await r.json()) as Chunk);
    // This parser yields every event; Gemini CLI's chat loop turns the `error` one into its failure.
    expect(chunks[chunks.length - 1]!.error).toMatchObject({ code: 503, status: "UNAVAILABLE" });
    expect(chunks.filter((c) => c.error)).toHaveLength(1);
    expect(shape(chunks).text).toBe(LONG);
    expect(shape(chunks).textChunks).toBeGreaterThanOrEqual(6);
  });
});
