// CoreReducer.pushAll (issue 17): a run of bare token frames (`{"v":"…"}`) appending to the string the payload
// before it grew is applied as one append. Against the same frames pushed one by one: the same text on each
// channel, the same other events in the same order, whatever the run holds or interrupts it.
import { describe, expect, test } from "bun:test";
import { SseDecoder } from "../../src/core/sse";
import type { CoreFrame } from "../../src/core/completion";
import { CoreReducer, type ReduceOptions } from "../../src/pipeline/core-reduce";
import { MergedEvents } from "../../src/pipeline/merged-events";
import type { CoreEvent } from "../../src/pipeline/types";
import { bodyOfRounds } from "./core-body";

const OPTS: ReduceOptions = { thinkingEnabled: true, stripReferenceMarkers: false };

function frames(rounds: unknown[][]): CoreFrame[] {
  const d = new SseDecoder();
  return [...d.push(bodyOfRounds(rounds)), ...d.end()];
}

function oneByOne(fs: CoreFrame[]): CoreEvent[] {
  const r = new CoreReducer(OPTS);
  const out: CoreEvent[] = [];
  const m = new MergedEvents({ enqueue: (e) => out.push(e) });
  for (const f of fs) r.push(f, m.emit);
  m.flush();
  r.end((e) => out.push(e));
  return out;
}

function asRuns(fs: CoreFrame[]): { events: CoreEvent[]; texts: number } {
  const r = new CoreReducer(OPTS);
  const out: CoreEvent[] = [];
  let texts = 0;
  const m = new MergedEvents({ enqueue: (e) => out.push(e) });
  r.pushAll(fs, (e) => {
    if (e.type === "text") texts++;
    m.emit(e);
  });
  m.flush();
  r.end((e) => out.push(e));
  return { events: out, texts };
}

const textOf = (evs: CoreEvent[], type: "text" | "thinking") => evs.map((e) => (e.type === type ? e.text : "")).join("");
const shape = (evs: CoreEvent[]) => evs.filter((e) => e.type !== "text" && e.type !== "thinking");

/** Both readings of fresh frames (the reducer grows the parsed objects it is handed). */
function agree(rounds: unknown[][]) {
  const a = oneByOne(frames(rounds));
  const b = asRuns(frames(rounds));
  expect(textOf(b.events, "text")).toBe(textOf(a, "text"));
  expect(textOf(b.events, "thinking")).toBe(textOf(a, "thinking"));
  expect(shape(b.events)).toEqual(shape(a));
  return { one: a, runs: b };
}

const snapshot = (fragments: unknown[] = [], status = "WIP") => ({ v: { response: { message_id: 2, fragments, status } } });
const toks = (n: number, f = (i: number) => `t${i} `) => Array.from({ length: n }, (_, i) => ({ v: f(i) }));

describe("CoreReducer.pushAll: runs of bare tokens", () => {
  test("a long run is one append: the same text, the per-token work done once", () => {
    const { one, runs } = agree([
      [snapshot([{ id: 1, type: "RESPONSE", content: "A" }]), { p: "response/fragments/-1/content", o: "APPEND", v: "b" }, ...toks(500), { p: "response/status", o: "SET", v: "FINISHED" }],
    ]);
    expect(textOf(one, "text")).toStartWith("Abt0 t1 ");
    expect(runs.texts).toBeLessThan(5);
  });

  test("thinking, then the answer: each channel gets its own run", () => {
    agree([
      [
        snapshot([{ id: 1, type: "THINK", content: "Hm" }]),
        { p: "response/fragments/-1/content", o: "APPEND", v: ", so" },
        ...toks(20, (i) => `th${i} `),
        { p: "response/fragments", o: "APPEND", v: [{ id: 2, type: "RESPONSE", content: "X" }] },
        { p: "response/fragments/-1/content", o: "APPEND", v: "y" },
        ...toks(20),
        { p: "response/status", o: "SET", v: "FINISHED" },
      ],
    ]);
  });

  test("tokens with escapes (newlines, quotes, backslashes, non-BMP) join like plain ones", () => {
    agree([[snapshot([{ id: 1, type: "RESPONSE", content: "" }]), { p: "response/fragments/-1/content", o: "APPEND", v: "a" }, ...toks(30, (i) => (i % 3 ? `q"${i}\\\n` : `😀${i}\u00e9`)), { p: "response/status", o: "SET", v: "FINISHED" }]]);
  });

  test("a reference marker and a partial leak marker cut across tokens are held and released the same", () => {
    const { one } = agree([
      [
        snapshot([{ id: 1, type: "RESPONSE", content: "", references: [] }]),
        { p: "response/fragments/-1/content", o: "APPEND", v: "See " },
        ...["[ref", "erence", ":", "1", "2", "] and CONT", "ENT_", "FILTERS", " are words. [refe"].map((v) => ({ v })),
        { p: "response/status", o: "SET", v: "FINISHED" },
      ],
    ]);
    expect(textOf(one, "text")).toContain("[reference:12]");
  });

  test("a leaked marker inside a run stops the answer at the same place", () => {
    const { one } = agree([[snapshot([{ id: 1, type: "RESPONSE", content: "" }]), { p: "response/fragments/-1/content", o: "APPEND", v: "Fine." }, ...["\nMore", " CONTENT", "_FILTER", " rest", " more"].map((v) => ({ v }))]]);
    expect(textOf(one, "text")).toBe("Fine.\nMore");
    expect(shape(one).at(-1)).toMatchObject({ type: "end", outcome: "content_filter" });
  });

  test("a sticky SET is never joined: the last value wins, as frame by frame", () => {
    const { one } = agree([[snapshot([{ id: 1, type: "RESPONSE", content: "ok" }]), { p: "response/status", o: "SET", v: "WIP" }, { v: "INCOMPLETE" }, { v: "FINISHED" }]]);
    expect(shape(one).at(-1)).toMatchObject({ type: "end", outcome: "finished" });
  });

  test("a sticky APPEND onto an array pushes each token: not a string append, not joined", () => {
    agree([
      [
        snapshot([{ id: 1, type: "RESPONSE", content: "a" }]),
        { p: "response/fragments", o: "APPEND", v: "junk" },
        { v: "more" },
        { v: "again" },
        { p: "response/fragments/-1/content", o: "APPEND", v: "b" },
        { p: "response/fragments", o: "APPEND", v: [{ id: 3, type: "RESPONSE", content: "c" }] },
        ...toks(5),
        { p: "response/status", o: "SET", v: "FINISHED" },
      ],
    ]);
  });

  test("after a BATCH the sticky op is BATCH: bare tokens are ignored either way", () => {
    agree([
      [
        snapshot([{ id: 1, type: "RESPONSE", content: "a" }]),
        { p: "response", o: "BATCH", v: [{ p: "fragments/-1/content", o: "APPEND", v: "b" }] },
        ...toks(5),
        { p: "response/fragments/-1/content", o: "APPEND", v: "c" },
        ...toks(5),
        { p: "response/status", o: "SET", v: "FINISHED" },
      ],
    ]);
  });

  test("a content-filter status between runs, rounds joined in one batch, keep-alive-free framing", () => {
    agree([
      [snapshot([{ id: 1, type: "RESPONSE", content: "a" }], "INCOMPLETE"), { p: "response/fragments/-1/content", o: "APPEND", v: "b" }, ...toks(10)],
      [snapshot([{ id: 1, type: "RESPONSE", content: "ab" + toks(10).map((t) => t.v).join("") }]), { p: "response/fragments/-1/content", o: "APPEND", v: "c" }, ...toks(4), { p: "response/status", o: "SET", v: "CONTENT_FILTER" }, ...toks(3)],
    ]);
  });

  test("a core failure in the middle of a batch ends the answer after the text before it", () => {
    const build = () => {
      const fs = frames([[snapshot([{ id: 1, type: "RESPONSE", content: "a" }]), { p: "response/fragments/-1/content", o: "APPEND", v: "b" }, ...toks(6)]]);
      fs.splice(fs.length - 3, 0, { event: "failure", data: "core stream failed", failure: "upstream_error" } as CoreFrame);
      return fs;
    };
    const a = oneByOne(build());
    const b = asRuns(build()).events;
    expect(textOf(b, "text")).toBe(textOf(a, "text"));
    expect(shape(b)).toEqual(shape(a));
    expect(shape(a).at(-1)).toMatchObject({ type: "end", outcome: "error" });
  });
});
