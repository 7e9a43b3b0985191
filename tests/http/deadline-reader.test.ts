// DeadlineReader (body-deadline.ts) on in-memory streams: one timer per body, re-armed by progress, cancelling
// a stalled stream (408), and gone once the body has ended.
import { describe, expect, test } from "bun:test";
import { DeadlineReader } from "../../src/http/body-deadline";
import { GatewayError } from "../../src/util/gateway-error";

/** A stream fed by `plan`: [delay ms, bytes] steps, then it stays open (stall) or closes. */
function source(plan: [number, number][], end: "close" | "stall") {
  const log = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    async start(c) {
      for (const [delay, n] of plan) {
        await Bun.sleep(delay);
        if (log.cancelled) return;
        c.enqueue(new Uint8Array(n));
      }
      if (end === "close") c.close();
    },
    cancel() {
      log.cancelled = true;
    },
  });
  return { stream, log };
}

async function readAll(reader: DeadlineReader): Promise<number> {
  let total = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) return total;
    total += r.value.byteLength;
  }
}

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    return e as GatewayError;
  }
  throw new Error("expected the read to fail");
}

describe("DeadlineReader", () => {
  test("once the body has ended the reader lets go of its stream, and reading again is still the end", async () => {
    const { stream } = source([[0, 10], [0, 20]], "close");
    const reader = new DeadlineReader(stream, 100);
    expect(stream.locked).toBe(true);
    expect(await readAll(reader)).toBe(30);
    // The request keeps its body stream for as long as its answer streams: the stream keeps no reader of ours.
    expect(stream.locked).toBe(false);
    expect(await reader.read()).toEqual({ done: true });
    await reader.cancel();
  });

  test("a body that keeps coming is read whole, over longer than the timeout", async () => {
    const { stream } = source([[0, 2048], [60, 2048], [60, 2048], [60, 2048]], "close");
    const started = performance.now();
    expect(await readAll(new DeadlineReader(stream, 100))).toBe(8192);
    expect(performance.now() - started).toBeGreaterThan(150);
  });

  test("a body that stops: 408 request_timeout once no byte came for the timeout, and the stream is cancelled", async () => {
    const { stream, log } = source([[0, 10]], "stall");
    const started = performance.now();
    const err = await failure(readAll(new DeadlineReader(stream, 80)));
    expect(err).toBeInstanceOf(GatewayError);
    expect(err.status).toBe(408);
    expect(err.code).toBe("request_timeout");
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    expect(log.cancelled).toBe(true);
  });

  test("a trickle (one byte every 30 ms) is cut by the rate rule, though never idle for the timeout", async () => {
    const { stream } = source(Array.from({ length: 100 }, (): [number, number] => [30, 1]), "close");
    const started = performance.now();
    const err = await failure(readAll(new DeadlineReader(stream, 100)));
    expect(err.status).toBe(408);
    // 100 ms plus about 1 ms per byte received: far before the 3 s the trickle would take.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  test("once the body has ended, the timer is gone: a read long after the deadline still just says done", async () => {
    const { stream } = source([[0, 10]], "close");
    const reader = new DeadlineReader(stream, 30);
    expect(await readAll(reader)).toBe(10);
    await Bun.sleep(80);
    expect(await reader.read()).toEqual({ done: true });
  });
});
