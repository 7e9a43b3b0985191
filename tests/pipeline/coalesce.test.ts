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
