import { describe, expect, test } from "bun:test";
import { KEEPALIVE_BLANK, KEEPALIVE_COMMENT, sseBody } from "../../src/http/sse";

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
});
