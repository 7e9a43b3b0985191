// Copies a turn's token usage onto the request state as its finish event passes, for the access log, the metrics
// and the usage per key (issue 20). The events pass through unchanged. A turn that never finishes (the client
// left, core failed) leaves the counts unset: core reports usage only at the end.
import type { RequestState } from "../http/request-state";
import type { TurnEvent } from "../pipeline/types";

export function usageTap(state: RequestState | undefined): TransformStream<TurnEvent, TurnEvent> {
  return new TransformStream<TurnEvent, TurnEvent>({
    transform(ev, c) {
      if (ev.type === "finish" && state) {
        // Added, not set: a request that runs two turns (the JSON-output retry) used both.
        state.inputTokens = (state.inputTokens ?? 0) + ev.usage.promptTokens;
        state.outputTokens = (state.outputTokens ?? 0) + ev.usage.completionTokens;
      }
      c.enqueue(ev);
    },
  });
}
