// Issue 30 item 5 / D4.5 as amended: an error inside a started generate-content stream carries its code as
// `details:[{reason}]`, like the surface's HTTP errors. Every kind of in-stream error, over a socket, with the
// simulator as core. (context_length_exceeded, which core reports before an answer starts, is rendered by the
// same code path; tests/surfaces/renderers.test.ts covers every code the turn can end with.)
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { startSimGateway, type SimGateway } from "../../helpers/sim-gateway";
import type { EnqueueEntry } from "../../../src/sim/types";

let gw: SimGateway;
beforeAll(async () => {
  // A short silence limit, so the core-silence case ends quickly (the stall below lasts far longer).
  gw = await startSimGateway({ upstream: { stream_idle_timeout_ms: 300 } });
});
afterAll(() => gw.stop());
afterEach(() => gw.sim.reset({ hard: true }));

/** The SSE data frames of one streamGenerateContent call, parsed. */
async function stream(body: Record<string, unknown>): Promise<{ status: number; frames: any[] }> {
  const r = await fetch(`${gw.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
    method: "POST",
    headers: { ...gw.auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  const frames = text
    .split(/\r?\n\r?\n/)
    .map((b) => /^data: (.*)$/m.exec(b)?.[1])
    .filter((d): d is string => d !== undefined)
    .map((d) => JSON.parse(d));
  return { status: r.status, frames };
}

const ask = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: "user", parts: [{ text }] }], ...extra });
const withThoughts = { generationConfig: { thinkingConfig: { includeThoughts: true } } };

const cases: [string, EnqueueEntry, Record<string, unknown>, string, string][] = [
  ["core's connection breaks mid-answer", { scenario: "eof-mid-answer" }, {}, "upstream_unavailable", "UNAVAILABLE"],
  ["core goes silent after the first words", { scenario: "stall", params: { ms: 30_000 } }, {}, "upstream_timeout", "UNAVAILABLE"],
  ["only thoughts, already streamed, then nothing visible", { scenario: "only-thinking", times: 5 }, withThoughts, "upstream_empty_output", "UNAVAILABLE"],
];

describe("generate-content in-stream errors carry details[0].reason", () => {
  test.each(cases)("%s", async (_name, entry, extra, reason, status) => {
    gw.sim.enqueue(entry);
    const r = await stream(ask(`in-stream ${reason}`, extra));
    expect(r.status).toBe(200);
    // Something was streamed before the error (that is what makes it an in-stream error).
    expect(r.frames.length).toBeGreaterThan(1);
    const last = r.frames[r.frames.length - 1];
    expect(Object.keys(last)).toEqual(["error"]);
    expect(last.error).toEqual({ code: status === "INVALID_ARGUMENT" ? 400 : 503, message: expect.any(String), status, details: [{ reason }] });
    // Only the last frame is an error.
    expect(r.frames.slice(0, -1).every((f) => f.error === undefined)).toBe(true);
  });
});
