// coreReduce over batches (issue 17): the core client hands on what one read completed as one batch; a run of
// same-channel deltas in it leaves as one event. Same text, same order of everything else, fewer events.
import { describe, expect, test } from "bun:test";
import { SseDecoder } from "../../src/core/sse";
import { MergedEvents } from "../../src/pipeline/merged-events";
import { coreReduce } from "../helpers/stages";
import type { CoreEvent } from "../../src/pipeline/types";
import type { CoreFrame } from "../../src/core/completion";
import { bodyOfRounds } from "./core-body";

const words = Array.from({ length: 50 }, (_, i) => `w${i} `);
const BODY = bodyOfRounds([
  [
    { v: { response: { message_id: 2, fragments: [{ id: 1, type: "THINK", content: "Hm" }], status: "WIP" } } },
    { p: "response/fragments/-1/content", o: "APPEND", v: ", ok" },
    { p: "response/fragments", o: "APPEND", v: [{ id: 2, type: "RESPONSE", content: "A" }] },
    { p: "response/fragments/-1/content", o: "APPEND", v: words[0] },
    ...words.slice(1).map((v) => ({ v })),
    { p: "response/status", o: "SET", v: "FINISHED" },
  ],
]);

async function reduce(input: (CoreFrame | CoreFrame[])[]): Promise<CoreEvent[]> {
  const stream = new ReadableStream<CoreFrame | CoreFrame[]>({
    start(c) {
      for (const x of input) c.enqueue(x);
      c.close();
    },
  }).pipeThrough(coreReduce({ thinkingEnabled: true, stripReferenceMarkers: true }));
  return Array.fromAsync(stream as unknown as AsyncIterable<CoreEvent>);
}

const textOf = (evs: CoreEvent[], type: "text" | "thinking") => evs.map((e) => (e.type === type ? e.text : "")).join("");
const shape = (evs: CoreEvent[]) => evs.filter((e) => e.type !== "text" && e.type !== "thinking");

/** Fresh frames each time: the reducer may keep (and grow) the parsed objects of a frame, as it owns them. */
function decode(): CoreFrame[] {
  const d = new SseDecoder();
  return [...d.push(BODY), ...d.end()];
}

describe("coreReduce over batches", () => {
  test("one batch gives the same text and the same other events as frame by frame, in a few events", async () => {
    const one = await reduce(decode());
    const batched = await reduce([decode()]);
    expect(textOf(batched, "text")).toBe(textOf(one, "text"));
    expect(textOf(batched, "thinking")).toBe(textOf(one, "thinking"));
    expect(textOf(one, "text")).toContain(words.join(""));
    expect(shape(batched)).toEqual(shape(one));
    expect(batched.filter((e) => e.type === "text")).toHaveLength(1);
    expect(one.filter((e) => e.type === "text").length).toBeGreaterThan(50);
  });

  test("batches split anywhere agree with one batch", async () => {
    const whole = await reduce([decode()]);
    for (const size of [1, 2, 3, 7]) {
      const frames = decode();
      const batches: CoreFrame[][] = [];
      for (let i = 0; i < frames.length; i += size) batches.push(frames.slice(i, i + size));
      const r = await reduce(batches);
      expect(textOf(r, "text")).toBe(textOf(whole, "text"));
      expect(textOf(r, "thinking")).toBe(textOf(whole, "thinking"));
      expect(shape(r)).toEqual(shape(whole));
    }
  });

  test("MergedEvents keeps channels apart and every other event in its place", () => {
    const out: CoreEvent[] = [];
    const m = new MergedEvents({ enqueue: (e) => out.push(e) });
    for (const e of [
      { type: "thinking", text: "a" },
      { type: "thinking", text: "b" },
      { type: "text", text: "c" },
      { type: "keepalive" },
      { type: "text", text: "d" },
      { type: "text", text: "e" },
    ] as CoreEvent[])
      m.emit(e);
    m.flush();
    expect(out).toEqual([{ type: "thinking", text: "ab" }, { type: "text", text: "c" }, { type: "keepalive" }, { type: "text", text: "de" }]);
  });
});
