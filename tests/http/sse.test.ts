import { describe, expect, test } from "bun:test";
import { KEEPALIVE_BLANK, KEEPALIVE_COMMENT, sseBody, sseWriter } from "../../src/http/sse";
import { stagedBody, type BatchSource } from "../../src/pipeline/staged-stream";
import { randomSplits } from "../helpers/chunking";

const streamOf = <T>(chunks: T[]) =>
  new ReadableStream<T>({
    start(c) {
      for (const x of chunks) c.enqueue(x);
      c.close();
    },
  });

describe("SSE body (D9.3)", () => {
  test("a keep-alive comment is written when the source stays silent", async () => {
    let push!: (s: string) => void;
    let end!: () => void;
    const source = new ReadableStream<string>({
      start(c) {
        push = (s) => c.enqueue(s);
        end = () => c.close();
      },
    });
    const reader = sseBody(source, { keepAlive: KEEPALIVE_COMMENT, idleMs: 20 }).getReader();
    const dec = new TextDecoder();
    // The opening keep-alive, then the idle one.
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    push("data: 1\n\n");
    expect(dec.decode((await reader.read()).value)).toBe("data: 1\n\n");
    end();
    expect((await reader.read()).done).toBe(true);
  });

  test("cancelling the body cancels the source (client disconnect reaches core)", async () => {
    let cancelled: unknown = null;
    const source = new ReadableStream<string>({
      pull(c) {
        c.enqueue("data: x\n\n");
      },
      cancel(reason) {
        cancelled = reason ?? "cancelled";
      },
    });
    const reader = sseBody(source, { keepAlive: KEEPALIVE_COMMENT }).getReader();
    await reader.read();
    await reader.cancel("client gone");
    expect(cancelled).toBe("client gone");
  });

  test("the body pulls from the source only as the client reads (backpressure)", async () => {
    let pulls = 0;
    const source = new ReadableStream<string>(
      {
        pull(c) {
          pulls++;
          c.enqueue(`data: ${pulls}\n\n`);
        },
      },
      { highWaterMark: 0 },
    );
    const reader = sseBody(source, { keepAlive: KEEPALIVE_COMMENT }).getReader();
    await reader.read();
    await reader.read();
    await Bun.sleep(20);
    expect(pulls).toBeLessThanOrEqual(3);
    await reader.cancel();
  });

  test("the body opens with the surface's keep-alive before the source has produced anything (headers go out at once)", async () => {
    for (const keepAlive of [KEEPALIVE_COMMENT, KEEPALIVE_BLANK]) {
      const reader = sseBody(new ReadableStream<string>({}), { keepAlive, idleMs: 60_000 }).getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe(keepAlive);
      await reader.cancel();
    }
  });

  test("the renderer's batches, however grouped (empty ones too), become the same bytes", async () => {
    const frames = Array.from({ length: 30 }, (_, i) => `data: {"i":${i},"t":"héllo 🙂 ${"x".repeat(i)}"}\n\n`);
    const whole = KEEPALIVE_COMMENT + frames.join("");
    const groupings: (string | string[])[][] = [frames, [frames], randomSplits(frames, 1, 4), [[], ...randomSplits(frames, 2, 7), []]];
    for (const grouping of groupings) {
      const body = sseBody(streamOf(grouping), { keepAlive: KEEPALIVE_COMMENT, idleMs: 60_000 });
      expect(await new Response(body).text()).toBe(whole);
    }
  });

  test("no keep-alive piles up while the client is not reading", async () => {
    const meter = { start: performance.now(), metered: false } as { start: number; metered: boolean; bytesOut?: number };
    const body = sseBody(new ReadableStream<string[]>({}), { keepAlive: KEEPALIVE_COMMENT, idleMs: 10, meter });
    const reader = body.getReader();
    // The client reads nothing for many idle periods: the opening keep-alive stays the only thing written.
    await Bun.sleep(80);
    expect(meter.bytesOut).toBe(KEEPALIVE_COMMENT.length);
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    // Reading again, it is waiting now: the next idle period brings one keep-alive.
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    await reader.cancel();
  });
});

// The same writer run inside the turn's own stream (issue 35: no TransformStream of its own): the body's
// controller is the stream's, so keep-alives, backpressure and the meter must behave as above.
describe("SSE writer inside a staged body", () => {
  /** A source of rendered batches that gives nothing until `give`; records cancels. */
  function silent() {
    let pending: ((b: string[] | null) => void) | null = null;
    const cancelled: unknown[] = [];
    const source: BatchSource<string> = {
      next: () => new Promise((resolve) => (pending = resolve)),
      cancel: async (reason) => void cancelled.push(reason),
    };
    /** Hands `b` to the pull waiting on the source (waits for it first). */
    const give = async (b: string[] | null) => {
      while (!pending) await Bun.sleep(1);
      const p = pending;
      pending = null;
      p(b);
    };
    return { source, cancelled, give };
  }

  test("opens with the keep-alive, adds one while the source is silent and the client waits, one chunk per batch", async () => {
    const s = silent();
    const reader = stagedBody(s.source, null, sseWriter({ keepAlive: KEEPALIVE_COMMENT, idleMs: 20 })).getReader();
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    // A rendered batch goes out as one chunk (the pull has been waiting on the source since the last read).
    const next = reader.read();
    await s.give(["data: 1\n\n", "data: 2\n\n"]);
    expect(dec.decode((await next).value)).toBe("data: 1\n\ndata: 2\n\n");
    const last = reader.read();
    await s.give(null);
    expect((await last).done).toBe(true);
  });

  test("no keep-alive piles up while the client is not reading; the client leaving cancels the source and ends the meter", async () => {
    const s = silent();
    const ended: boolean[] = [];
    const meter = { start: performance.now(), metered: false, streamEnded: (aborted: boolean) => void ended.push(aborted) } as { start: number; metered: boolean; bytesOut?: number; streamEnded(a: boolean): void };
    const reader = stagedBody(s.source, null, sseWriter({ keepAlive: KEEPALIVE_COMMENT, idleMs: 10, meter })).getReader();
    await Bun.sleep(80);
    expect(meter.bytesOut).toBe(KEEPALIVE_COMMENT.length);
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    expect(dec.decode((await reader.read()).value)).toBe(KEEPALIVE_COMMENT);
    await reader.cancel("client gone");
    expect(s.cancelled).toEqual(["client gone"]);
    expect(ended).toEqual([true]);
  });

  test("the rendered batches become the same bytes as through the SSE stage, and the end reaches the meter", async () => {
    const frames = Array.from({ length: 30 }, (_, i) => `data: {"i":${i},"t":"héllo 🙂 ${"x".repeat(i)}"}\n\n`);
    for (const seed of [1, 2, 3]) {
      const batches = [[], ...randomSplits(frames, seed, 5), []];
      const ended: boolean[] = [];
      const meter = { start: performance.now(), metered: false, streamEnded: (aborted: boolean) => void ended.push(aborted) };
      const source: BatchSource<string> = { next: async () => batches.shift() ?? null, cancel: async () => {} };
      const body = stagedBody(source, null, sseWriter({ keepAlive: KEEPALIVE_COMMENT, idleMs: 60_000, meter }));
      const chunks: string[] = [];
      for await (const c of body as unknown as AsyncIterable<Uint8Array>) chunks.push(new TextDecoder().decode(c));
      expect(chunks.join("")).toBe(KEEPALIVE_COMMENT + frames.join(""));
      // One chunk per non-empty batch, after the opening keep-alive.
      expect(chunks.length).toBe(1 + randomSplits(frames, seed, 5).length);
      expect(ended).toEqual([false]);
    }
  });
});
