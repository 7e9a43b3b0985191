// turnFactsTap: each finish event's usage onto the request state (turns add up), the first in-stream error's
// code too; events pass unchanged.
import { describe, expect, test } from "bun:test";
import { RequestState } from "../../src/metering/request-state";
import type { TurnEvent } from "../../src/pipeline/types";
import { turnFactsStage } from "../../src/metering/turn-facts-tap";
import { stageStream } from "../helpers/stages";

// The stage as a stream of its own (the routes run it fused with the others).
const turnFactsTap = (...a: Parameters<typeof turnFactsStage>) => stageStream(turnFactsStage(...a));

async function run(events: TurnEvent[], state: RequestState | undefined): Promise<TurnEvent[]> {
  const out: TurnEvent[] = [];
  const source = new ReadableStream<TurnEvent>({
    start(c) {
      for (const e of events) c.enqueue(e);
      c.close();
    },
  });
  const reader = source.pipeThrough(turnFactsTap(state)).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

const finish = (p: number, c: number): TurnEvent => ({ type: "finish", outcome: "stop", usage: { promptTokens: p, completionTokens: c, reasoningTokens: 0, totalTokens: p + c } });
const state = (): RequestState => new RequestState("r", "http://x/", "/", "", "chat");

describe("turnFactsTap", () => {
  test("events pass unchanged; the finish event's usage lands on the state", async () => {
    const s = state();
    const events: TurnEvent[] = [{ type: "text", text: "hi" }, finish(12, 3)];
    expect(await run(events, s)).toEqual(events);
    expect([s.inputTokens, s.outputTokens]).toEqual([12, 3]);
  });

  test("two turns of one request (the JSON-output retry) add up", async () => {
    const s = state();
    await run([finish(10, 2)], s);
    await run([finish(15, 4)], s);
    expect([s.inputTokens, s.outputTokens]).toEqual([25, 6]);
  });

  test("a turn that fails mid-answer leaves the counts unset and records the error code; no state is no error", async () => {
    const s = state();
    await run([{ type: "text", text: "cut" }, { type: "error", status: 503, code: "upstream_timeout", message: "x" }], s);
    expect(s.inputTokens).toBeUndefined();
    expect(s.errorCode).toBe("upstream_timeout");
    expect(await run([finish(1, 1)], undefined)).toHaveLength(1);
  });
});
