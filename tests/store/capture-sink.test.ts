import { describe, expect, test } from "bun:test";
import { captureSink } from "../../src/store/capture-sink";
import { CaptureStore, type CaptureInput, type OpenCapture } from "../../src/store/captures";

/** A real store whose finish() also hands over what each ended round delivered, to look at its chunks. */
function store(settings: { limit?: number; max?: number; enabled?: boolean } = {}) {
  const s = new CaptureStore({ enabled: settings.enabled ?? true, limit: settings.limit ?? 20, max_body_bytes: settings.max ?? 5 * 1024 * 1024 });
  const ended: Pick<CaptureInput, "response_chunks" | "response_bytes">[] = [];
  const finish = s.finish.bind(s);
  s.finish = (open: OpenCapture, end) => {
    ended.push(end);
    return finish(open, end);
  };
  return { s, ended };
}

const round = { label: "completion" as const, round: 0, path: "/api/v0/chat/completion", requestBody: '{"prompt":"hi"}', status: 200, startedAt: Date.now() };
const token = (i: number) => new TextEncoder().encode(`data: {"v":" w${i}"}\n\n`);

describe("capture sink", () => {
  test("a body read a token at a time is kept as a few blocks that own their bytes, byte for byte", () => {
    const { s, ended } = store();
    const sink = captureSink(s, "chain", "a@x", round)!;
    // Views of one shared read buffer, as the runtime hands them over.
    const shared = new Uint8Array(256 * 1024);
    const expected: number[] = [];
    let at = 0;
    for (let i = 0; i < 1000; i++) {
      const t = token(i);
      shared.set(t, at);
      sink.chunk(shared.subarray(at, at + t.byteLength));
      expected.push(...t);
      at += t.byteLength;
    }
    sink.end();
    const chunks = ended[0]!.response_chunks!;
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(1000 / 64));
    for (const c of chunks) expect(c.buffer).not.toBe(shared.buffer);
    expect([...Buffer.concat(chunks)]).toEqual(expected);
    expect(ended[0]!.response_bytes).toBe(expected.length);
    const [item] = s.list();
    expect(item).toMatchObject({ chain_key: "chain", account_id: "a@x", label: "completion", path: "/api/v0/chat/completion", status_code: 200, request_body: '{"prompt":"hi"}' });
    expect(item!.response_body).toBe(new TextDecoder().decode(new Uint8Array(expected)));
  });

  test("max_body_bytes still bounds what is kept while the full size is counted", () => {
    const { s, ended } = store({ max: 1024 });
    const sink = captureSink(s, "chain", null, round)!;
    for (let i = 0; i < 500; i++) sink.chunk(new TextEncoder().encode("data: {}\n\n"));
    sink.end();
    const kept = ended[0]!.response_chunks!.reduce((n, c) => n + c.byteLength, 0);
    expect(kept).toBeLessThanOrEqual(1024 + 4 + 10);
    expect(kept).toBeGreaterThanOrEqual(1024);
    expect(ended[0]!.response_bytes).toBe(5000);
  });

  test("captures off: no sink, nothing kept for the round", () => {
    const { s } = store({ enabled: false });
    expect(captureSink(s, "chain", null, round)).toBeUndefined();
    const undo = s.force("forced");
    expect(captureSink(s, "forced", null, round)).toBeDefined();
    undo();
  });

  test("an open round is listed once it ends, newest first by its end, as record() lists", () => {
    const { s } = store();
    const long = captureSink(s, "long", null, round)!;
    long.chunk(token(0));
    const short = captureSink(s, "short", null, round)!;
    short.chunk(token(1));
    expect(s.list()).toEqual([]);
    short.end();
    expect(s.list().map((i) => i.chain_key)).toEqual(["short"]);
    long.end();
    expect(s.list().map((i) => i.chain_key)).toEqual(["long", "short"]);
    expect(s.chains().map((c) => c.chain_key)).toEqual(["long", "short"]);
  });

  test("a round that `limit` newer rounds pushed out while it streamed lets go of its request and answer, and records nothing", () => {
    const { s, ended } = store({ limit: 3 });
    const old = captureSink(s, "old", null, { ...round, requestBody: "x".repeat(10_000) })!;
    for (let i = 0; i < 100; i++) old.chunk(token(i));
    const opened = (s as unknown as { items: OpenCapture[] }).items[0]!;
    for (let n = 0; n < 3; n++) {
      const sink = captureSink(s, `new${n}`, null, round)!;
      sink.chunk(token(n));
      sink.end();
    }
    expect(opened.dropped).toBe(true);
    expect(opened.request).toBeNull();
    expect(JSON.stringify(opened)).not.toContain("x".repeat(100));
    // What it kept goes at once, though its stream is silent; the rest of its answer is counted, not kept.
    // Its place in the store goes too: a dropped round's sink keeps nothing of the capture (issue 35).
    const held = old as unknown as { chunks: Uint8Array[]; recent: Uint8Array[]; open: OpenCapture | null };
    expect(held.chunks.length + held.recent.length).toBe(0);
    expect(held.open).toBeNull();
    old.chunk(token(100));
    expect(held.chunks.length + held.recent.length).toBe(0);
    // Its end has nothing to hand the store: the three newer rounds' ends are the only ones it was told of.
    old.end();
    expect(ended.length).toBe(3);
    expect(s.list().map((i) => i.chain_key)).toEqual(["new2", "new1", "new0"]);
  });

  test("clearing the captures while a round streams: the round's end records nothing", () => {
    const { s } = store();
    const sink = captureSink(s, "open", null, round)!;
    sink.chunk(token(0));
    s.clear();
    sink.chunk(token(1));
    sink.end();
    expect(s.list()).toEqual([]);
  });
});
