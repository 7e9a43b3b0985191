// The non-stream collector without a stream (collect-turn.ts collectFrom): the same result, and the same end, as
// collecting the stream stagedStream makes of the same source and stages — for every batching of the events, with
// stages that emit at their start, per event and at their flush; and a stage's error, a stage's termination, an
// error event, a throwing stage and a failing source each end it as the stream's reader would see it end, with
// the source cancelled exactly when the stream would cancel it.
import { describe, expect, test } from "bun:test";
import { collectFrom, collectTurn } from "../../src/pipeline/collect-turn";
import { composeStages, stagedStream, type BatchSource } from "../../src/pipeline/staged-stream";
import type { SyncTransformer } from "../../src/pipeline/stage";
import type { TurnEvent } from "../../src/pipeline/types";
import { randomSplits } from "../helpers/chunking";

function source(batches: TurnEvent[][], failWith?: unknown): BatchSource<TurnEvent> & { cancelled: unknown[]; reads: number } {
  const queue = batches.map((b) => [...b]);
  const s = {
    cancelled: [] as unknown[],
    reads: 0,
    async next(): Promise<TurnEvent[] | null> {
      s.reads++;
      if (queue.length) return queue.shift()!;
      if (failWith !== undefined) throw failWith;
      return null;
    },
    async cancel(reason?: unknown) {
      s.cancelled.push(reason);
    },
  };
  return s;
}

const usage = { promptTokens: 1, completionTokens: 2, reasoningTokens: 0, totalTokens: 3 };
const EVENTS: TurnEvent[] = [
  { type: "thinking", text: "hm" },
  { type: "text", text: "Hello " },
  { type: "keepalive" },
  { type: "text", text: "wörld" },
  { type: "call_start", index: 0, id: "call_a", name: "read" },
  { type: "call_args", index: 0, fragment: '{"p":"\u00e9' },
  { type: "call_args", index: 0, fragment: '"}' },
  { type: "call_end", index: 0 },
  { type: "text", text: " done" },
  { type: "finish", outcome: "tool_calls", usage },
];

/** Emits a text at its start and flush, and doubles every text event. */
const doubler = (): SyncTransformer<TurnEvent, TurnEvent> => ({
  start: (c) => c.enqueue({ type: "text", text: "<" }),
  transform: (ev, c) => {
    c.enqueue(ev);
    if (ev.type === "text") c.enqueue({ type: "text", text: ev.text.toUpperCase() });
  },
  flush: (c) => c.enqueue({ type: "text", text: ">" }),
});
/** Drops keep-alives, and sends its own text before the finish. */
const finisher = (): SyncTransformer<TurnEvent, TurnEvent> => ({
  transform: (ev, c) => {
    if (ev.type === "keepalive") return;
    if (ev.type === "finish") c.enqueue({ type: "text", text: "!" });
    c.enqueue(ev);
  },
});

async function both(batches: TurnEvent[][], stages: () => SyncTransformer<TurnEvent, TurnEvent>[], failWith?: unknown) {
  const viaStream = source(batches, failWith);
  const streamed = await collectTurn(stagedStream(viaStream, stages().length ? composeStages(stages()) : null)).then((r) => ({ r }), (e) => ({ e }));
  const direct = source(batches, failWith);
  const s = stages();
  const collected = await collectFrom(direct, s.length ? composeStages(s) : null).then((r) => ({ r }), (e) => ({ e }));
  return { streamed, collected, viaStream, direct };
}

describe("collectFrom: a non-stream result without a stream", () => {
  test("the same result as the stream's collector, for every batching, with and without stages", async () => {
    const batchings = [[EVENTS], EVENTS.map((e) => [e]), ...[1, 2, 3, 4].map((seed) => randomSplits(EVENTS, seed, 4).flatMap((b, i) => (i % 2 ? [b, []] : [b])))];
    for (const stages of [() => [], () => [doubler()], () => [doubler(), finisher()]]) {
      for (const batching of batchings) {
        const { streamed, collected, direct } = await both(batching, stages);
        expect("r" in streamed).toBe(true);
        expect(collected).toEqual(streamed);
        // A source read to its end is not cancelled.
        expect(direct.cancelled).toEqual([]);
      }
    }
  });

  test("an error event ends it with the event's status and code, the rest unread and the source cancelled once", async () => {
    const broke: TurnEvent = { type: "error", status: 503, code: "upstream_unavailable", message: "broke" };
    const batches = [[{ type: "text", text: "a" } as TurnEvent, broke, { type: "text", text: "never" } as TurnEvent], [{ type: "text", text: "never" } as TurnEvent]];
    const { streamed, collected, direct } = await both(batches, () => [doubler()]);
    expect((collected as { e: unknown }).e).toMatchObject({ status: 503, code: "upstream_unavailable", message: "broke" });
    expect((streamed as { e: unknown }).e).toMatchObject({ status: 503, code: "upstream_unavailable" });
    expect(direct.cancelled.length).toBe(1);
    expect(direct.reads).toBe(1);
  });

  test("a stage's error ends it with the stage's reason and cancels the source", async () => {
    const reason = new Error("stage says no");
    const failing = (): SyncTransformer<TurnEvent, TurnEvent> => ({ transform: (ev, c) => (ev.type === "keepalive" ? c.error(reason) : c.enqueue(ev)) });
    const { streamed, collected, viaStream, direct } = await both([EVENTS.slice(0, 2), EVENTS.slice(2)], () => [failing()]);
    expect((collected as { e: unknown }).e).toBe(reason);
    expect((streamed as { e: unknown }).e).toBe(reason);
    expect(direct.cancelled).toEqual([reason]);
    expect(viaStream.cancelled).toEqual([reason]);
  });

  test("a stage that throws: its error, and the source cancelled", async () => {
    const reason = new Error("thrown");
    const throwing = (): SyncTransformer<TurnEvent, TurnEvent> => ({
      transform: (ev, c) => {
        if (ev.type === "call_start") throw reason;
        c.enqueue(ev);
      },
    });
    const { streamed, collected, viaStream, direct } = await both([EVENTS], () => [throwing()]);
    expect((collected as { e: unknown }).e).toBe(reason);
    expect((streamed as { e: unknown }).e).toBe(reason);
    expect(direct.cancelled).toEqual([reason]);
    expect(viaStream.cancelled).toEqual([reason]);
  });

  test("a stage that terminates: what came before it, the stages after it flushed, the source cancelled", async () => {
    const stopper = (): SyncTransformer<TurnEvent, TurnEvent> => ({ transform: (ev, c) => (ev.type === "call_start" ? c.terminate() : c.enqueue(ev)) });
    const { streamed, collected, viaStream, direct } = await both([EVENTS.slice(0, 3), EVENTS.slice(3)], () => [stopper(), doubler()]);
    expect("r" in collected).toBe(true);
    expect(collected).toEqual(streamed);
    expect((collected as { r: { text: string } }).r.text).toBe("<Hello HELLO wörldWÖRLD>");
    expect(direct.cancelled.length).toBe(1);
    expect(viaStream.cancelled.length).toBe(1);
  });

  test("a failing source: its error, and the source (already ended) not cancelled", async () => {
    const reason = new Error("core went away");
    const { streamed, collected, viaStream, direct } = await both([EVENTS.slice(0, 2)], () => [doubler()], reason);
    expect((collected as { e: unknown }).e).toBe(reason);
    expect((streamed as { e: unknown }).e).toBe(reason);
    expect(direct.cancelled).toEqual([]);
    expect(viaStream.cancelled).toEqual([]);
  });

  test("what a stage emits on its own between batches (a timer) is in the result", async () => {
    let later: ((ev: TurnEvent) => void) | null = null;
    const timed: SyncTransformer<TurnEvent, TurnEvent> = {
      start: (c) => (later = (ev) => c.enqueue(ev)),
      transform: (ev, c) => c.enqueue(ev),
    };
    const src = source([[{ type: "text", text: "a" }]]);
    const next = src.next.bind(src);
    let n = 0;
    src.next = async () => {
      if (n++ === 1) later!({ type: "text", text: "b" });
      return next();
    };
    const r = await collectFrom(src, timed);
    expect(r.text).toBe("ab");
  });
});
