// TurnAccumulator (issue 17): one reading of a turn's events for the non-stream result, the chat history, the
// whole-text svcml parse and the assembler's finish decision.
import { describe, expect, test } from "bun:test";
import { showsAnswer, TurnAccumulator } from "../../src/pipeline/turn-accumulator";
import { collectTurn } from "../../src/pipeline/collect-turn";
import { collectEvents } from "../../src/pipeline/svcml/parse";
import type { TurnEvent } from "../../src/pipeline/types";

const usage = { promptTokens: 3, completionTokens: 5, reasoningTokens: 1, totalTokens: 8 };
const EVENTS: TurnEvent[] = [
  { type: "thinking", text: "let me see" },
  { type: "keepalive" },
  { type: "text", text: "Reading " },
  { type: "text", text: "it." },
  { type: "call_start", index: 0, id: "call_a", name: "read_file" },
  { type: "call_args", index: 0, fragment: '{"path":' },
  { type: "call_args", index: 0, fragment: '"a.md"}' },
  { type: "call_end", index: 0 },
  { type: "text", text: " then " },
  { type: "call_start", index: 1, id: "call_b", name: "list" },
  { type: "call_args", index: 1, fragment: "{}" },
  { type: "finish", outcome: "length", usage },
];

/** The events as the runner's stream gives them, a batch of one per chunk. */
function streamOf(events: TurnEvent[]): ReadableStream<TurnEvent[]> {
  return batchesStream(events.map((e) => [e]));
}

/** `batches` as a stream pulled one per read; `cancelled` records cancels. */
function batchesStream(batches: TurnEvent[][], cancelled: unknown[] = []): ReadableStream<TurnEvent[]> {
  let i = 0;
  return new ReadableStream<TurnEvent[]>(
    {
      pull: (c) => (i < batches.length ? c.enqueue(batches[i++]!) : c.close()),
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: 0 },
  );
}

describe("TurnAccumulator", () => {
  test("text, parts in order, calls with their arguments, outcome and usage", () => {
    const acc = new TurnAccumulator();
    for (const e of EVENTS) acc.push(e);
    const r = acc.result();
    expect(r.thinking).toBe("let me see");
    expect(r.text).toBe("Reading it. then ");
    expect(r.parts.map((p) => (p.type === "text" ? p.text : `<${p.call.name}>`))).toEqual(["Reading it.", "<read_file>", " then ", "<list>"]);
    expect(r.calls).toEqual([
      { index: 0, id: "call_a", name: "read_file", arguments: '{"path":"a.md"}', finished: true },
      { index: 1, id: "call_b", name: "list", arguments: "{}", finished: false },
    ]);
    expect(acc.openCalls).toBe(1);
    expect(acc.finishedCalls).toBe(1);
    expect(r.outcome).toBe("length");
    expect(r.usage).toEqual(usage);
  });

  test("what reached the client: blank text is not an answer, thinking and a call are counted apart", () => {
    const acc = new TurnAccumulator();
    acc.push({ type: "text", text: " \n" });
    expect(acc.shownAnswer).toBe(false);
    acc.push({ type: "thinking", text: "hm" });
    expect(acc.shownThinking).toBe(true);
    expect(acc.shownAnswer).toBe(false);
    acc.push({ type: "call_start", index: 0, id: "c", name: "f" });
    expect(acc.shownAnswer).toBe(true);
  });

  test("a repeated call_end counts once", () => {
    const acc = new TurnAccumulator();
    acc.push({ type: "call_start", index: 0, id: "c", name: "f" });
    acc.push({ type: "call_end", index: 0 });
    acc.push({ type: "call_end", index: 0 });
    expect(acc.finishedCalls).toBe(1);
    expect(acc.openCalls).toBe(0);
  });


  test("facts only: the same facts as a full accumulator, none of the turn's text", () => {
    const full = new TurnAccumulator();
    const facts = new TurnAccumulator("facts");
    const seen: [boolean, boolean, boolean][] = [];
    for (const e of EVENTS) {
      full.push(e);
      facts.push(e);
      expect([facts.shownAnswer, facts.shownText, facts.shownThinking]).toEqual([full.shownAnswer, full.shownText, full.shownThinking]);
      seen.push([facts.shownAnswer, facts.shownText, facts.shownThinking]);
    }
    expect(seen[1]).toEqual([false, false, true]);
    expect(seen[2]).toEqual([true, true, true]);
    expect([facts.calls.length, facts.finishedCalls, facts.openCalls]).toEqual([2, 1, 1]);
    expect([facts.thinking, facts.text, facts.calls[0]!.arguments]).toEqual(["", "", ""]);
    expect(full.calls[0]!.arguments).toBe('{"path":"a.md"}');
  });

  test("shownText: only non-blank answer text, not a call", () => {
    const acc = new TurnAccumulator("facts");
    acc.push({ type: "text", text: "  " });
    acc.push({ type: "call_start", index: 0, id: "c", name: "f" });
    expect([acc.shownAnswer, acc.shownText]).toEqual([true, false]);
    acc.push({ type: "text", text: "ok" });
    expect(acc.shownText).toBe(true);
  });

  test("the non-stream result and the whole-text parse read the events exactly as the accumulator does", async () => {
    const acc = new TurnAccumulator();
    for (const e of EVENTS) acc.push(e);
    expect(await collectTurn(streamOf(EVENTS))).toEqual(acc.result());
    const detectorEvents = EVENTS.filter((e) => e.type === "text" || e.type.startsWith("call_")) as Parameters<typeof collectEvents>[0];
    const parsed = collectEvents(detectorEvents);
    expect(parsed.visibleText).toBe(acc.text);
    expect(parsed.calls).toEqual(acc.calls);
  });

  test("collectTurn reads any batching of the events alike; an error event in a batch cancels the rest", async () => {
    const batches: TurnEvent[][] = [[EVENTS[0]!, EVENTS[1]!], [], EVENTS.slice(2)];
    const cancelled: unknown[] = [];
    const source = (list: TurnEvent[][]) => batchesStream(list, cancelled);
    expect(await collectTurn(source(batches))).toEqual(await collectTurn(streamOf(EVENTS)));
    expect(await collectTurn(source([EVENTS]))).toEqual(await collectTurn(streamOf(EVENTS)));
    expect(cancelled).toEqual([]);
    const broke: TurnEvent = { type: "error", status: 503, code: "upstream_unavailable", message: "broke" };
    const e = await collectTurn(source([[{ type: "text", text: "a" }, broke, { type: "text", text: "never" }], [{ type: "text", text: "never" }]])).catch((x) => x);
    expect(e).toMatchObject({ status: 503, code: "upstream_unavailable" });
    // The error event cancels the stream: whatever produces it is released at once.
    expect(cancelled.length).toBe(1);
  });

  test("collectTurn ends on an error event with the event's status and code", async () => {
    const e = await collectTurn(streamOf([{ type: "text", text: "a" }, { type: "error", status: 503, code: "upstream_unavailable", message: "broke" }])).catch((x) => x);
    expect(e).toMatchObject({ status: 503, code: "upstream_unavailable" });
  });

  test("showsAnswer: what ends the invisible-retry window (D9.6) — thinking, non-blank text, a call", () => {
    expect(showsAnswer({ type: "thinking", text: "hm" })).toBe(true);
    expect(showsAnswer({ type: "thinking", text: "" })).toBe(false);
    expect(showsAnswer({ type: "text", text: " \n" })).toBe(false);
    expect(showsAnswer({ type: "text", text: "a" })).toBe(true);
    expect(showsAnswer({ type: "call_start", index: 0, id: "c", name: "f" })).toBe(true);
    expect(showsAnswer({ type: "keepalive" })).toBe(false);
  });
});
