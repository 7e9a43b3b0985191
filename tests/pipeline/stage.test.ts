// batchStage: a SyncTransformer run over batches as one TransformStream. Whatever the batching — one event per
// chunk, everything in one, seeded random batches with empty ones among them — the stage sees the same events
// and the stream gives the same output, in order; output the stage sends on its own between batches leaves at
// once; an error or terminate mid-batch stops the stage there.
import { describe, expect, test } from "bun:test";
import { batchStage, type SyncTransformer } from "../../src/pipeline/stage";
import { coalesceStage } from "../../src/pipeline/coalesce";
import type { TurnEvent } from "../../src/pipeline/types";
import { randomSplits, runTransform } from "../helpers/chunking";

/** Numbers each item it sees, opens with "open" and closes with "close". */
const tagger = (): SyncTransformer<string, string> => {
  let n = 0;
  return {
    start: (c) => c.enqueue("open"),
    transform: (x, c) => {
      c.enqueue(`${++n}:${x}`);
      // Every third item a second output: a batch's output is not one item per input.
      if (n % 3 === 0) c.enqueue(`${n}:extra`);
    },
    flush: (c) => c.enqueue("close"),
  };
};

const items = Array.from({ length: 40 }, (_, i) => `x${i}`);

/** `input` split into batches, with an empty batch after every other one. */
function withEmpties(batches: string[][]): string[][] {
  return batches.flatMap((b, i) => (i % 2 ? [b, []] : [b]));
}

describe("batchStage", () => {
  test("the same output for every batching of the same input, never an empty batch", async () => {
    const one = (await runTransform(batchStage(tagger()), items.map((x) => [x]))).flat();
    expect(one[0]).toBe("open");
    expect(one.at(-1)).toBe("close");
    expect(one.filter((x) => x.endsWith(":extra")).length).toBe(13);
    const batchings: string[][][] = [[items], withEmpties(randomSplits(items, 1, 5)), ...[2, 3, 4].map((seed) => randomSplits(items, seed, 9)), [[], ...items.map((x) => [x]), []]];
    for (const batching of batchings) {
      const out = await runTransform(batchStage(tagger()), batching);
      expect(out.every((b) => b.length > 0)).toBe(true);
      expect(out.flat()).toEqual(one);
    }
  });

  test("what one batch produces leaves as one batch", async () => {
    const out = await runTransform(batchStage(tagger()), [["a", "b", "c"], ["d"]]);
    expect(out).toEqual([["open"], ["1:a", "2:b", "3:c", "3:extra"], ["4:d"], ["close"]]);
  });

  test("a stage's own output between batches (the coalescer's timer) leaves at once, without waiting for input", async () => {
    const ts = batchStage<TurnEvent, TurnEvent>(coalesceStage({ flushMs: 20, flushChars: 1000 }));
    const reader = ts.readable.getReader();
    const writer = ts.writable.getWriter();
    void writer.write([{ type: "text", text: "a" }, { type: "text", text: "b" }, { type: "text", text: "c" }]);
    const got: TurnEvent[] = [];
    // The first delta goes at once; what the coalescer holds comes with its timer, no further input written.
    while (got.map((e) => (e.type === "text" ? e.text : "")).join("") !== "abc") got.push(...(await reader.read()).value!);
    expect(got.map((e) => (e.type === "text" ? e.text : "")).join("")).toBe("abc");
    await writer.close();
    expect((await reader.read()).done).toBe(true);
  });

  test("an error mid-batch errors the stream and the rest of the batch is not handed to the stage", async () => {
    const seen: string[] = [];
    const failing: SyncTransformer<string, string> = {
      transform: (x, c) => {
        seen.push(x);
        if (x === "bad") c.error(new Error("stage failed"));
        else c.enqueue(x);
      },
    };
    const ts = batchStage(failing);
    const reader = ts.readable.getReader();
    const writer = ts.writable.getWriter();
    for (const batch of [["a"], ["b", "bad", "c"], ["d"]]) writer.write(batch).catch(() => {});
    expect((await reader.read()).value).toEqual(["a"]);
    await expect(reader.read()).rejects.toThrow("stage failed");
    expect(seen).toEqual(["a", "b", "bad"]);
  });

  test("terminate mid-batch sends what the stage emitted so far and ends the stream", async () => {
    const seen: string[] = [];
    const stopping: SyncTransformer<string, string> = {
      transform: (x, c) => {
        seen.push(x);
        c.enqueue(x);
        if (x === "stop") c.terminate();
      },
    };
    const ts = batchStage(stopping);
    const reader = ts.readable.getReader();
    const writer = ts.writable.getWriter();
    writer.write(["a", "stop", "c"]).catch(() => {});
    expect((await reader.read()).value).toEqual(["a", "stop"]);
    expect((await reader.read()).done).toBe(true);
    expect(seen).toEqual(["a", "stop"]);
  });
});
