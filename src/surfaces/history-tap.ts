// Chat history recording (D12.2): every business turn is recorded as it starts and finishes. The tap reads
// the TurnEvents on their way to the renderer without changing them. Streamed text reaches the store in
// batches (at most every APPEND_EVERY_MS, and at every other event): one store update per core token cost
// more than the rest of the token's way through the gateway (issue 17).
import type { ChatHistoryStore } from "../store/chat-history";
import { TurnAccumulator } from "../pipeline/turn-accumulator";
import type { TurnEvent } from "../pipeline/types";
import type { SyncTransformer } from "../pipeline/stage";

/** How stale the live view of a streaming entry may get while tokens keep coming. */
export const APPEND_EVERY_MS = 100;

export function historyTapStage(store: ChatHistoryStore, id: string | null, clientSignal: AbortSignal): SyncTransformer<TurnEvent, TurnEvent> {
  if (!id) return { transform: (ev, c) => c.enqueue(ev) };
  // The calls as the non-stream result sees them: one accumulator for every reader of a turn (issue 17). Made at a
  // turn's first call only: most turns have none, and the accumulator is a dozen objects.
  let acc: TurnAccumulator | null = null;
  let done = false;
  let content = "";
  let reasoning = "";
  let lastAppend = 0;
  const append = () => {
    if (!content && !reasoning) return;
    store.append(id, reasoning ? (content ? { content, reasoning } : { reasoning }) : { content });
    content = "";
    reasoning = "";
    lastAppend = performance.now();
  };
  const end = (fin: Parameters<ChatHistoryStore["finish"]>[1]) => {
    if (done) return;
    done = true;
    append();
    store.finish(id, { ...fin, tool_calls: acc ? acc.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) : [] });
  };
  // A client that goes away stops the turn (D12.2 `stopped`).
  clientSignal.addEventListener("abort", () => end({ status: "stopped", status_code: 499 }), { once: true });
  return {
    transform(ev, c) {
      switch (ev.type) {
        case "text":
        case "thinking": {
          // The first token goes at once: the entry's first_token_ms is taken when it arrives.
          const first = lastAppend === 0;
          if (ev.type === "text") content += ev.text;
          else reasoning += ev.text;
          if (first || performance.now() - lastAppend >= APPEND_EVERY_MS) append();
          break;
        }
        case "call_start":
          append();
          (acc ??= new TurnAccumulator()).push(ev);
          break;
        case "keepalive":
          // Core is slow: what is buffered need not wait for the next token.
          append();
          break;
        case "call_args":
        case "call_end":
          (acc ??= new TurnAccumulator()).push(ev);
          break;
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
  };
}

