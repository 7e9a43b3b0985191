// Chat history recording (D12.2): every business turn is recorded as it starts and finishes. The tap reads
// the TurnEvents on their way to the renderer without changing them. Streamed text reaches the store in
// batches (at most every APPEND_EVERY_MS, and at every other event): one store update per core token cost
// more than the rest of the token's way through the gateway (issue 17).
import type { ChatHistoryStore } from "../store/chat-history";
import { TurnAccumulator } from "../pipeline/turn-accumulator";
import type { TurnEvent } from "../pipeline/types";
import type { StageController, SyncTransformer } from "../pipeline/stage";

/** How stale the live view of a streaming entry may get while tokens keep coming. */
export const APPEND_EVERY_MS = 100;

export function historyTapStage(store: ChatHistoryStore, id: string | null, clientSignal: AbortSignal): SyncTransformer<TurnEvent, TurnEvent> {
  if (!id) return PASS_THROUGH;
  const tap = new HistoryTap(store, id);
  // A client that goes away stops the turn (D12.2 `stopped`). The tap is its own listener (handleEvent).
  clientSignal.addEventListener("abort", tap, { once: true });
  return tap;
}

/** A turn with no history entry: its events pass unchanged (one shared object, not one per request). */
const PASS_THROUGH: SyncTransformer<TurnEvent, TurnEvent> = { transform: (ev, c) => c.enqueue(ev) };

type Finish = Parameters<ChatHistoryStore["finish"]>[1];

/**
 * A class, not closures over the request (issue 35): an open stream keeps its tap, and its methods are shared by
 * every stream instead of `append`, `end` and an abort listener made per request.
 */
class HistoryTap implements SyncTransformer<TurnEvent, TurnEvent> {
  // The calls as the non-stream result sees them: one accumulator for every reader of a turn (issue 17). Made at a
  // turn's first call only: most turns have none, and the accumulator is a dozen objects.
  private acc: TurnAccumulator | null = null;
  private done = false;
  private content = "";
  private reasoning = "";
  private lastAppend = 0;

  constructor(
    private readonly store: ChatHistoryStore,
    private readonly id: string,
  ) {}

  /** The client's signal aborted. */
  handleEvent(): void {
    this.end({ status: "stopped", status_code: 499 });
  }

  private append(): void {
    const { content, reasoning } = this;
    if (!content && !reasoning) return;
    this.store.append(this.id, reasoning ? (content ? { content, reasoning } : { reasoning }) : { content });
    this.content = "";
    this.reasoning = "";
    this.lastAppend = performance.now();
  }

  private end(fin: Finish): void {
    if (this.done) return;
    this.done = true;
    this.append();
    const acc = this.acc;
    this.store.finish(this.id, { ...fin, tool_calls: acc ? acc.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) : [] });
  }

  transform(ev: TurnEvent, c: StageController<TurnEvent>): void {
    switch (ev.type) {
      case "text":
      case "thinking": {
        // The first token goes at once: the entry's first_token_ms is taken when it arrives.
        const first = this.lastAppend === 0;
        if (ev.type === "text") this.content += ev.text;
        else this.reasoning += ev.text;
        if (first || performance.now() - this.lastAppend >= APPEND_EVERY_MS) this.append();
        break;
      }
      case "call_start":
        this.append();
        (this.acc ??= new TurnAccumulator()).push(ev);
        break;
      case "keepalive":
        // Core is slow: what is buffered need not wait for the next token.
        this.append();
        break;
      case "call_args":
      case "call_end":
        (this.acc ??= new TurnAccumulator()).push(ev);
        break;
      case "finish":
        this.end({
          status: "success",
          status_code: 200,
          finish_reason: ev.outcome,
          usage: { input_tokens: ev.usage.promptTokens, output_tokens: ev.usage.completionTokens, reasoning_tokens: ev.usage.reasoningTokens },
        });
        break;
      case "error":
        this.end({ status: "error", status_code: ev.status, error: { code: ev.code, message: ev.message } });
        break;
    }
    c.enqueue(ev);
  }

  flush(): void {
    this.end({ status: "error", status_code: 200, error: { code: "incomplete", message: "the stream ended without a finish" } });
  }
}
