// A read of core's body whose answer is there already is taken without an await (round.ts readAtOnce): the answer
// of a read begun on a stream with bytes queued, with the idle watch ended as an awaited read ends it; nothing for
// a read still pending (it is awaited as before, and its answer is the one that comes), nor for a failed one.
import { describe, expect, test } from "bun:test";
import { beginRead, readAtOnce, stopWatch, type Ctx, type Round } from "../../src/core/round";

function roundOn(stream: ReadableStream<Uint8Array>): Round {
  return { reader: stream.getReader(), headFrames: [], decoder: null as never, ended: false, flushed: false, reading: false, since: 0, tripped: false, timer: undefined } as unknown as Round;
}
const ctx = { idleMs: 60_000 } as Ctx;

describe("readAtOnce", () => {
  test("bytes queued: the read's answer now, and the read is over for the idle watch", () => {
    const stream = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("data: x\n\n")) });
    const round = roundOn(stream);
    const r = readAtOnce(ctx, round, beginRead(ctx, round));
    expect(r?.done).toBe(false);
    expect(new TextDecoder().decode(r!.value)).toBe("data: x\n\n");
    expect(round.reading).toBe(false);
    stopWatch(round);
  });

  test("the end already known: done now", () => {
    const round = roundOn(new ReadableStream<Uint8Array>({ start: (c) => c.close() }));
    const r = readAtOnce(ctx, round, beginRead(ctx, round));
    expect(r?.done).toBe(true);
    expect(round.timer).toBeUndefined();
  });

  test("nothing yet: undefined, and the awaited read gets what comes later", async () => {
    let push!: (b: Uint8Array) => void;
    const round = roundOn(new ReadableStream<Uint8Array>({ start: (c) => void (push = (b) => c.enqueue(b)) }));
    const read = beginRead(ctx, round);
    expect(readAtOnce(ctx, round, read)).toBeUndefined();
    expect(round.reading).toBe(true);
    push(new Uint8Array([1, 2]));
    expect([...(await read).value!]).toEqual([1, 2]);
    stopWatch(round);
  });

  test("a failed read: undefined (its error is the awaited read's to report)", async () => {
    const round = roundOn(new ReadableStream<Uint8Array>({ start: (c) => c.error(new Error("broke")) }));
    const read = beginRead(ctx, round);
    await read.catch(() => {});
    expect(readAtOnce(ctx, round, read)).toBeUndefined();
    await expect(read).rejects.toThrow("broke");
    stopWatch(round);
  });
});
