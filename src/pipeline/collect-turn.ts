// Non-stream responses: collect the TurnEvents of one turn into a TurnResult, rendered once by a surface.
import { GatewayError } from "../http/errors";
import type { FinishedCall, TurnEvent, TurnResult } from "./types";

export async function collectTurn(events: ReadableStream<TurnEvent>): Promise<TurnResult> {
  const result: TurnResult = {
    thinking: "",
    text: "",
    parts: [],
    calls: [],
    outcome: "stop",
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, totalTokens: 0 },
  };
  const byIndex = new Map<number, FinishedCall>();
  const reader = events.getReader();
  for (;;) {
    const { done, value: ev } = await reader.read();
    if (done) break;
    switch (ev.type) {
      case "thinking":
        result.thinking += ev.text;
        break;
      case "text": {
        result.text += ev.text;
        const last = result.parts[result.parts.length - 1];
        if (last?.type === "text") last.text += ev.text;
        else result.parts.push({ type: "text", text: ev.text });
        break;
      }
      case "call_start": {
        const call: FinishedCall = { index: ev.index, id: ev.id, name: ev.name, arguments: "", finished: false };
        byIndex.set(ev.index, call);
        result.calls.push(call);
        result.parts.push({ type: "call", call });
        break;
      }
      case "call_args": {
        const call = byIndex.get(ev.index);
        if (call) call.arguments += ev.fragment;
        break;
      }
      case "call_end": {
        const call = byIndex.get(ev.index);
        if (call) call.finished = true;
        break;
      }
      case "finish":
        result.outcome = ev.outcome;
        result.usage = ev.usage;
        break;
      case "error":
        throw new GatewayError(ev.status, ev.code, ev.message);
      case "keepalive":
        break;
    }
  }
  return result;
}

/** Finished calls in index order (unfinished calls are omitted by every non-stream renderer). */
export function finishedCalls(result: TurnResult): FinishedCall[] {
  return result.calls.filter((c) => c.finished).sort((a, b) => a.index - b.index);
}
