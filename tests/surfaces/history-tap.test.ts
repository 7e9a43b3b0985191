// The chat-history tap (D12.2) batches streamed text into the store (issue 17) without losing or reordering any
// of it, takes the first token at once, and ends the entry exactly once.
import { describe, expect, test } from "bun:test";
import { historyTapStage } from "../../src/surfaces/history-tap";
import { stageStream } from "../helpers/stages";
import type { ChatHistoryStore } from "../../src/store/chat-history";
import type { TurnEvent } from "../../src/pipeline/types";

// The stage as a stream of its own (the routes run it fused with the others).
const historyTap = (...a: Parameters<typeof historyTapStage>) => stageStream(historyTapStage(...a));

function fakeStore() {
  const appends: { content?: string; reasoning?: string }[] = [];
  const finishes: unknown[] = [];
  const store = {
    append: (_id: string | null, d: { content?: string; reasoning?: string }) => void appends.push(d),
    finish: (_id: string | null, f: unknown) => void finishes.push(f),
  } as unknown as ChatHistoryStore;
  return { store, appends, finishes };
}

async function run(events: TurnEvent[], signal = new AbortController().signal) {
  const f = fakeStore();
  const out = await Array.fromAsync(
    new ReadableStream<TurnEvent>({
      start(c) {
        for (const e of events) c.enqueue(e);
        c.close();
      },
    }).pipeThrough(historyTap(f.store, "h1", signal)) as unknown as AsyncIterable<TurnEvent>,
  );
  return { ...f, out };
}

const usage = { promptTokens: 1, completionTokens: 2, reasoningTokens: 0, totalTokens: 3 } as never;

describe("historyTap", () => {
  test("a burst of tokens reaches the store whole, in order, in far fewer updates, the first one at once", async () => {
    const words = Array.from({ length: 2000 }, (_, i) => `w${i} `);
    const events: TurnEvent[] = [{ type: "thinking", text: "hm" }, ...words.map((text) => ({ type: "text" as const, text })), { type: "finish", outcome: "stop", usage }];
    const r = await run(events);
    expect(r.out).toEqual(events);
    expect(r.appends[0]).toEqual({ reasoning: "hm" });
    expect(r.appends.map((a) => a.content ?? "").join("")).toBe(words.join(""));
    expect(r.appends.length).toBeLessThan(100);
    expect(r.finishes).toHaveLength(1);
    expect(r.finishes[0]).toMatchObject({ status: "success", finish_reason: "stop" });
  });

  test("buffered text is stored before a tool call starts and when core sends a keep-alive", async () => {
    const r = await run([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "keepalive" },
      { type: "text", text: "c" },
      { type: "call_start", index: 0, id: "call_1", name: "f" },
      { type: "call_args", index: 0, fragment: "{}" },
      { type: "call_end", index: 0 },
      { type: "finish", outcome: "tool_calls", usage },
    ]);
    expect(r.appends).toEqual([{ content: "a" }, { content: "b" }, { content: "c" }]);
    expect(r.finishes[0]).toMatchObject({ tool_calls: [{ id: "call_1", name: "f", arguments: "{}" }] });
  });

  test("an error ends the entry once, with what was buffered stored first", async () => {
    const r = await run([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "error", status: 503, code: "upstream_unavailable", message: "broke" },
    ]);
    expect(r.appends.map((a) => a.content).join("")).toBe("ab");
    expect(r.finishes).toEqual([expect.objectContaining({ status: "error", status_code: 503 })]);
  });
});
