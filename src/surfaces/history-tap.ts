// Chat history recording (D12.2): every business turn is recorded as it starts and finishes. The tap reads
// the TurnEvents on their way to the renderer without changing them.
import type { ChatHistoryStore, HistoryToolCall } from "../store/chat-history";
import type { TurnEvent } from "../pipeline/types";

export function historyTap(store: ChatHistoryStore, id: string | null, clientSignal: AbortSignal): TransformStream<TurnEvent, TurnEvent> {
  if (!id) return new TransformStream<TurnEvent, TurnEvent>();
  const calls = new Map<number, HistoryToolCall>();
  let done = false;
  const end = (fin: Parameters<ChatHistoryStore["finish"]>[1]) => {
    if (done) return;
    done = true;
    store.finish(id, { ...fin, tool_calls: [...calls.values()] });
  };
  // A client that goes away stops the turn (D12.2 `stopped`).
  clientSignal.addEventListener("abort", () => end({ status: "stopped", status_code: 499 }), { once: true });
  return new TransformStream<TurnEvent, TurnEvent>({
    transform(ev, c) {
      switch (ev.type) {
        case "text":
        case "thinking":
          store.append(id, ev.type === "text" ? { content: ev.text } : { reasoning: ev.text });
          break;
        case "call_start":
          calls.set(ev.index, { id: ev.id, name: ev.name, arguments: "" });
          break;
        case "call_args": {
          const call = calls.get(ev.index);
          if (call) call.arguments += ev.fragment;
          break;
        }
        case "finish":
          end({
            status: "success",
            status_code: 200,
            finish_reason: ev.outcome,
            usage: { input_tokens: ev.usage.promptTokens, output_tokens: ev.usage.completionTokens, reasoning_tokens: ev.usage.reasoningTokens },
          });
          break;
        case "error":
          end({ status: "error", status_code: ev.status, error: { code: ev.code, message: ev.message } });
          break;
      }
      c.enqueue(ev);
    },
    flush() {
      end({ status: "error", status_code: 200, error: { code: "incomplete", message: "the stream ended without a finish" } });
    },
  });
}
