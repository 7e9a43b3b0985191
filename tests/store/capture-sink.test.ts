import { describe, expect, test } from "bun:test";
import { captureSink } from "../../src/store/capture-sink";
import type { CaptureInput, CaptureStore } from "../../src/store/captures";

function fakeStore(max: number) {
  const recorded: CaptureInput[] = [];
  const store = { settings: { max_body_bytes: max }, record: (item: CaptureInput) => void recorded.push(item) } as unknown as CaptureStore;
  return { store, recorded };
}

const round = { label: "completion" as const, round: 0, path: "/api/v0/chat/completion", requestBody: "{}", status: 200, startedAt: Date.now() };

describe("capture sink", () => {
  test("a body read a token at a time is kept as a few blocks that own their bytes, byte for byte", () => {
    const { store, recorded } = fakeStore(5 * 1024 * 1024);
    const sink = captureSink(store, "chain", "a@x", round);
    // Views of one shared read buffer, as the runtime hands them over.
    const shared = new Uint8Array(256 * 1024);
    const expected: number[] = [];
    let at = 0;
    for (let i = 0; i < 1000; i++) {
      const token = new TextEncoder().encode(`data: {"v":" w${i}"}\n\n`);
      shared.set(token, at);
      sink.chunk(shared.subarray(at, at + token.byteLength));
      expected.push(...token);
      at += token.byteLength;
    }
    sink.end();
    const chunks = recorded[0]!.response_chunks!;
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(1000 / 64));
    for (const c of chunks) expect(c.buffer).not.toBe(shared.buffer);
    expect([...Buffer.concat(chunks)]).toEqual(expected);
    expect(recorded[0]!.response_bytes).toBe(expected.length);
  });

  test("max_body_bytes still bounds what is kept while the full size is counted", () => {
    const { store, recorded } = fakeStore(1024);
    const sink = captureSink(store, "chain", null, round);
    for (let i = 0; i < 500; i++) sink.chunk(new TextEncoder().encode("data: {}\n\n"));
    sink.end();
    const kept = recorded[0]!.response_chunks!.reduce((n, c) => n + c.byteLength, 0);
    expect(kept).toBeLessThanOrEqual(1024 + 4 + 10);
    expect(kept).toBeGreaterThanOrEqual(1024);
    expect(recorded[0]!.response_bytes).toBe(5000);
  });
});
