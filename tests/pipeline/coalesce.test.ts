import { describe, expect, test } from "bun:test";
import { coalesceStage } from "../../src/pipeline/coalesce";
import { stageStream } from "../helpers/stages";
import type { TurnEvent } from "../../src/pipeline/types";
import { runTransform } from "../helpers/chunking";

// The stage as a stream of its own (the routes run it fused with the others).
const coalesceDeltas = (...a: Parameters<typeof coalesceStage>) => stageStream(coalesceStage(...a));

const text = (t: string): TurnEvent => ({ type: "text", text: t });
const think = (t: string): TurnEvent => ({ type: "thinking", text: t });

function joined(events: TurnEvent[], type: "text" | "thinking") {
  return events.filter((e) => e.type === type).map((e) => (e as { text: string }).text).join("");
}

describe("coalescing of tiny deltas (D9.4)", () => {
  test("the first delta of a channel goes out at once, the rest is buffered to 128 characters", async () => {
    const input = [text("a"), ...Array.from({ length: 300 }, (_, i) => text(String(i % 10)))];
    const out = await runTransform(coalesceDeltas({ flushMs: 10_000 }), input);
    expect(out[0]).toEqual(text("a"));
    expect(out.length).toBeLessThan(10);
    expect(joined(out, "text")).toBe(joined(input, "text"));
  });

  test("a channel switch flushes the buffer first and the order of channels is kept", async () => {
    const input = [think("x"), think("y"), think("z"), text("A"), text("B"), think("w")];
    const out = await runTransform(coalesceDeltas({ flushMs: 10_000 }), input);
    expect(out).toEqual([think("x"), think("yz"), text("A"), text("B"), think("w")]);
  });

  test("each call's arguments are a channel of their own: the first fragment of every call goes out at once", async () => {
    const args = (index: number, fragment: string): TurnEvent => ({ type: "call_args", index, fragment });
    const input = [text("a"), text("b"), args(0, "{"), args(0, '"x"'), args(1, "{"), args(1, '"y"'), args(0, ":1}"), text("c")];
    const out = await runTransform(coalesceDeltas({ flushMs: 10_000 }), input);
    // The answer's text had its first delta already: "c" is buffered until the end, the calls' first are not.
    expect(out).toEqual([text("a"), text("b"), args(0, "{"), args(0, '"x"'), args(1, "{"), args(1, '"y"'), args(0, ":1}"), text("c")]);
    const tight = await runTransform(coalesceDeltas({ flushMs: 10_000 }), [args(2, "{"), args(2, '"a"'), args(2, ":1}"), args(3, "{"), args(3, "}")]);
    expect(tight).toEqual([args(2, "{"), args(2, '"a":1}'), args(3, "{"), args(3, "}")]);
  });

  test("non-delta events flush pending text before them", async () => {
    const input: TurnEvent[] = [text("a"), text("b"), text("c"), { type: "call_start", index: 0, id: "call_1", name: "f" }];
    const out = await runTransform(coalesceDeltas({ flushMs: 10_000 }), input);
    expect(out).toEqual([text("a"), text("bc"), { type: "call_start", index: 0, id: "call_1", name: "f" }]);
  });

  test("a flush never splits a surrogate pair", async () => {
    const emoji = "😀";
    const input = [text("."), ...Array.from({ length: 200 }, (_, i) => text(emoji[i % 2]!))];
    const out = await runTransform(coalesceDeltas({ flushChars: 7, flushMs: 10_000 }), input);
    for (const ev of out) {
      const t = (ev as { text: string }).text;
      const last = t.charCodeAt(t.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    expect(joined(out, "text")).toBe(joined(input, "text"));
  });

  test("buffered text is flushed after the time limit without further input", async () => {
    const ts = coalesceDeltas({ flushMs: 20 });
    const writer = ts.writable.getWriter();
    const reader = ts.readable.getReader();
    void writer.write(text("a"));
    expect((await reader.read()).value).toEqual(text("a"));
    void writer.write(text("b"));
    const next = await reader.read();
    expect(next.value).toEqual(text("b"));
  });
});
