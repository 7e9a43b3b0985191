import { describe, expect, test } from "bun:test";
import { KEEPALIVE_BLANK, KEEPALIVE_COMMENT, sseBody } from "../../src/http/sse";
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
