// turnText: a streamed answer's stages, one TransformStream each, piped after the turn's events as the SSE body
// reads. Output a stage sends on its own (the coalescer's 50 ms flush) must reach a read that waits for the next
// event; the turn's own stages (piped by startTurn) run before the surface's; the end flushes every stage; a
// failing turn fails the read; cancel reaches the turn.
import { describe, expect, test } from "bun:test";
import { turnText } from "../../src/surfaces/business-turn";
import { coalesceStage } from "../../src/pipeline/coalesce";
import { batchStage, type SyncTransformer } from "../../src/pipeline/stage";
import type { RunningTurn } from "../../src/turn/types";
import type { TurnEvent } from "../../src/pipeline/types";

function turn(): { running: RunningTurn; push(ev: TurnEvent): void; close(): void; fail(e: unknown): void; cancelled: unknown[] } {
  let c!: ReadableStreamDefaultController<TurnEvent[]>;
  const cancelled: unknown[] = [];
  const events = new ReadableStream<TurnEvent[]>({ start: (ctl) => void (c = ctl), cancel: (r) => void cancelled.push(r) }, { highWaterMark: 0 });
  const running: RunningTurn = { events, sessionId: "s", account: null, promptTokens: 0 };
  return { running, push: (ev) => c.enqueue([ev]), close: () => c.close(), fail: (e) => c.error(e), cancelled };
}

/** Renders text events as `[text]`, opens with `<` and closes with `>`. */
const renderer = (): SyncTransformer<TurnEvent, string> => ({
  start: (c) => c.enqueue("<"),
  transform: (ev, c) => {
    if (ev.type === "text") c.enqueue(`[${ev.text}]`);
  },
  flush: (c) => c.enqueue(">"),
});

describe("turnText", () => {
  test("the coalescer's timed flush reaches a read that is waiting for the next event", async () => {
    const t = turn();
    const source = turnText(t.running, coalesceStage({ flushMs: 20, flushChars: 1000 }), renderer()).getReader();
    expect(await source.read()).toEqual({ done: false, value: ["<"] });
    t.push({ type: "text", text: "a" }); // the first delta of a channel goes out at once
    expect(await source.read()).toEqual({ done: false, value: ["[a]"] });
    t.push({ type: "text", text: "b" }); // held by the coalescer until its timer
    const started = performance.now();
    const r = await source.read(); // no further event arrives: only the timer can answer this read
    expect(r).toEqual({ done: false, value: ["[b]"] });
    expect(performance.now() - started).toBeLessThan(1000);
    t.close();
    expect(await source.read()).toEqual({ done: false, value: [">"] });
    expect((await source.read()).done).toBe(true);
  });

  test("the turn's own stages run first, then the surface's", async () => {
    const t = turn();
    const seen: string[] = [];
    const upper: SyncTransformer<TurnEvent, TurnEvent> = { transform: (ev, c) => (seen.push(ev.type), c.enqueue(ev.type === "text" ? { ...ev, text: ev.text.toUpperCase() } : ev)) };
    t.running.events = t.running.events.pipeThrough(batchStage(upper));
    const source = turnText(t.running, renderer()).getReader();
    t.push({ type: "text", text: "x" });
    expect(await source.read()).toEqual({ done: false, value: ["<"] });
    expect(await source.read()).toEqual({ done: false, value: ["[X]"] });
    t.close();
    expect(await source.read()).toEqual({ done: false, value: [">"] });
    expect(seen).toEqual(["text"]);
  });

  test("a failing turn fails the read; cancel reaches the turn", async () => {
    const failing = turn();
    const a = turnText(failing.running, renderer()).getReader();
    await a.read();
    failing.fail(new Error("core broke"));
    await expect(a.read()).rejects.toThrow("core broke");

    const leaving = turn();
    const b = turnText(leaving.running, renderer()).getReader();
    await b.read();
    await b.cancel("client left");
    for (let i = 0; i < 50 && leaving.cancelled.length === 0; i++) await Bun.sleep(1);
    expect(leaving.cancelled).toEqual(["client left"]);
  });
});
