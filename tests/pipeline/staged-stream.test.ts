// Stages run inside one stream (staged-stream.ts): composed stages give exactly what the same stages piped one
// TransformStream each give, for every batching of the input (empty batches among them); a stage's own output
// between batches reaches a waiting read; a sink writes one chunk per output batch; the reader going away, a
// failing source and a failing stage each end the stream the way a pipe chain does, and reach the source.
import { describe, expect, test } from "bun:test";
import { batchStage, type SyncTransformer } from "../../src/pipeline/stage";
import { composeStages, stagedBody, stagedStream, type BatchSink, type BatchSource } from "../../src/pipeline/staged-stream";
import { coalesceStage } from "../../src/pipeline/coalesce";
import type { TurnEvent } from "../../src/pipeline/types";
import { randomSplits, runTransform } from "../helpers/chunking";
import { dropper, tagger } from "../helpers/string-stages";

/** `batches` one per next(), then the end; records cancels; fails with `failWith` instead of ending, if given. */
function source<T>(batches: T[][], failWith?: unknown): BatchSource<T> & { cancelled: unknown[]; waiting: () => boolean; give(b: T[] | null): void } {
  const queue = [...batches];
  const cancelled: unknown[] = [];
  let pending: ((b: T[] | null) => void) | null = null;
  return {
    cancelled,
    waiting: () => pending !== null,
    give(b) {
      const p = pending;
      pending = null;
      p?.(b);
    },
    async next() {
      if (queue.length) return queue.shift()!;
      if (failWith !== undefined) throw failWith;
      if (batches.length === 0) return new Promise<T[] | null>((resolve) => (pending = resolve));
      return null;
    },
    async cancel(reason) {
      cancelled.push(reason);
    },
  };
}

async function readAll<T>(s: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of s as unknown as AsyncIterable<T>) out.push(x);
  return out;
}

const items = Array.from({ length: 30 }, (_, i) => (i % 7 === 3 ? `drop${i}` : `x${i}`));

describe("stages inside one stream", () => {
  test("the same output as the stages piped one TransformStream each, for every batching", async () => {
    const stages = () => [tagger("a"), dropper(), tagger("b")];
    let piped: ReadableStream<string[]> = new ReadableStream<string[]>({
      start(c) {
        for (const x of items) c.enqueue([x]);
        c.close();
      },
    });
    for (const s of stages()) piped = piped.pipeThrough(batchStage(s));
    const expected = (await readAll(piped)).flat();
    expect(expected).toContain("b:close");
    const batchings: string[][][] = [[items], items.map((x) => [x]), ...[1, 2, 3].map((seed) => randomSplits(items, seed, 6).flatMap((b, i) => (i % 2 ? [b, []] : [b])))];
    for (const batching of batchings) {
      const out = await readAll(stagedStream(source(batching), composeStages<string, string>(stages())));
      expect(out.every((b) => b.length > 0)).toBe(true);
      expect(out.flat()).toEqual(expected);
      // The composed stage run by batchStage (a turn whose events were already read) gives the same.
      const viaBatch = await runTransform(batchStage(composeStages<string, string>(stages())), batching);
      expect(viaBatch.flat()).toEqual(expected);
    }
  });

  test("what one batch produces leaves as one batch", async () => {
    const out = await readAll(stagedStream(source([["p", "q", "r"], ["s"]]), composeStages<string, string>([tagger("a"), tagger("b")])));
    expect(out).toEqual([["b:open", "b1(a:open)"], ["b2(a1(p))", "b3(a2(q))", "b3:extra", "b4(a3(r))", "b5(a3:extra)"], ["b6(a4(s))", "b6:extra"], ["b7(a:close)", "b:close"]]);
  });

  test("a stage's own output between batches (the coalescer's timer) reaches a read waiting for the source", async () => {
    const src = source<TurnEvent>([]);
    const render: SyncTransformer<TurnEvent, string> = { transform: (ev, c) => (ev.type === "text" ? c.enqueue(`[${ev.text}]`) : undefined) };
    const reader = stagedStream(src, composeStages<TurnEvent, string>([coalesceStage({ flushMs: 20, flushChars: 1000 }), render])).getReader();
    const first = reader.read();
    while (!src.waiting()) await Bun.sleep(1);
    src.give([{ type: "text", text: "a" }, { type: "text", text: "b" }]);
    expect(await first).toEqual({ done: false, value: ["[a]"] });
    // The source stays silent: only the coalescer's timer can answer this read.
    expect(await reader.read()).toEqual({ done: false, value: ["[b]"] });
    await reader.cancel("done");
    expect(src.cancelled).toEqual(["done"]);
  });

  test("a sink writes one chunk per output batch and is told of the end", async () => {
    const log: string[] = [];
    const sink: BatchSink<string, string> & { c?: ReadableStreamDefaultController<string> } = {
      start(c) {
        this.c = c;
        c.enqueue("opening");
      },
      transform(batch) {
        this.c!.enqueue(batch.join("+"));
      },
      flush: () => void log.push("flush"),
      cancel: (r) => void log.push(`cancel ${String(r)}`),
    };
    const out = await readAll(stagedBody(source([["p", "q"], ["drop"], ["r"]]), composeStages<string, string>([dropper(), tagger("a")]), sink));
    expect(out).toEqual(["opening", "a:open", "a1(p)+a2(q)", "a3(r)+a3:extra", "a:close"]);
    expect(log).toEqual(["flush"]);
  });

  test("the reader going away cancels the source and the sink; a failing source errors the stream with its reason", async () => {
    const log: string[] = [];
    const sink = (): BatchSink<string, string> => ({ start() {}, transform() {}, flush: () => void log.push("flush"), cancel: (r) => void log.push(`cancel ${String(r)}`) });
    const src = source<string>([]);
    const reader = stagedBody(src, null, sink()).getReader();
    void reader.read().catch(() => {});
    await reader.cancel("client left");
    expect(src.cancelled).toEqual(["client left"]);
    expect(log).toEqual(["cancel client left"]);

    log.length = 0;
    const failing = stagedBody(source([["a"]], new Error("core broke")), null, sink());
    await expect(readAll(failing)).rejects.toThrow("core broke");
    expect(log).toEqual(["cancel Error: core broke"]);
  });

  test("a stage that errors or throws errors the stream and cancels the source, as a pipe would", async () => {
    const erring: SyncTransformer<string, string> = { transform: (x, c) => (x.includes("bad") ? c.error(new Error("stage failed")) : c.enqueue(x)) };
    const a = source([["ok"], ["bad", "never"]]);
    await expect(readAll(stagedStream(a, composeStages<string, string>([tagger("t"), erring])))).rejects.toThrow("stage failed");
    expect(a.cancelled.length).toBe(1);

    const throwing: SyncTransformer<string, string> = {
      transform: (x) => {
        throw new Error(`cannot take ${x}`);
      },
    };
    const b = source([["x"]]);
    await expect(readAll(stagedStream(b, throwing))).rejects.toThrow("cannot take x");
    expect(b.cancelled.length).toBe(1);
  });

  test("a stage that terminates ends the stream: the stages after it flush, the source is cancelled", async () => {
    const stopAtQ: SyncTransformer<string, string> = { transform: (x, c) => (x === "q" ? c.terminate() : c.enqueue(x)) };
    const src = source([["p", "q", "r"], ["s"]]);
    const out = await readAll(stagedStream(src, composeStages<string, string>([stopAtQ, tagger("b")])));
    expect(out.flat()).toEqual(["b:open", "b1(p)", "b:close"]);
    expect(src.cancelled.length).toBe(1);
  });

  test("a stage in the middle that terminates: the ones before it see nothing more, the ones after flush once", async () => {
    // It terminates, so it is not flushed itself: its flush's output would show a wrong stage being ended.
    const stopAtQ: SyncTransformer<string, string> = {
      transform: (x, c) => (x.includes("(q)") ? c.terminate() : c.enqueue(x)),
      flush: (c) => c.enqueue("stop:flushed"),
    };
    const src = source([["p", "q", "r"], ["s"]]);
    const out = await readAll(stagedStream(src, composeStages<string, string>([tagger("a"), stopAtQ, tagger("b")])));
    expect(out.flat()).toEqual(["b:open", "b1(a:open)", "b2(a1(p))", "b:close"]);
    expect(src.cancelled.length).toBe(1);
  });

  test("at most 30 stages compose into one (the composed stage keeps which are over as bits of a number)", () => {
    const pass: SyncTransformer<string, string> = { transform: (x, c) => c.enqueue(x) };
    expect(() => composeStages(Array.from({ length: 30 }, () => pass))).not.toThrow();
    expect(() => composeStages(Array.from({ length: 31 }, () => pass))).toThrow(RangeError);
  });
});
