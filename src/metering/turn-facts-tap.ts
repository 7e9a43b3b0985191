// Copies what a turn's events tell about the request onto its state, for the access log, the metrics and the
// usage per key (issue 20): the finish event's token usage, and the code of an error that arrives after the
// response started (status 200 by then, so onError never sees it). The events pass through unchanged.
// A turn that never finishes (the client left, core failed) leaves the counts unset: core reports usage only
// at the end.
import type { RequestState } from "./request-state";
import type { TurnEvent } from "../pipeline/types";
import type { StageController, SyncTransformer } from "../pipeline/stage";

export function turnFactsStage(state: RequestState | undefined): SyncTransformer<TurnEvent, TurnEvent> {
  return new TurnFacts(state);
}

/** A class, not a closure over the state (issue 35): an open stream keeps its stages. */
class TurnFacts implements SyncTransformer<TurnEvent, TurnEvent> {
  constructor(private readonly state: RequestState | undefined) {}

  transform(ev: TurnEvent, c: StageController<TurnEvent>): void {
    const state = this.state;
    const tl = state?.timeline;
    // Issue 31: the first piece of the answer (thinking, text or a call) is the request log's first token.
    if (tl && tl.firstToken === undefined && (ev.type === "text" || ev.type === "thinking" || ev.type === "call_start")) tl.markFirstToken();
    if (state && ev.type === "finish") {
      // Added, not set: a request that runs two turns (the JSON-output retry) used both.
      state.inputTokens = (state.inputTokens ?? 0) + ev.usage.promptTokens;
      state.outputTokens = (state.outputTokens ?? 0) + ev.usage.completionTokens;
      state.reasoningTokens = (state.reasoningTokens ?? 0) + (ev.usage.reasoningTokens ?? 0);
      tl?.markLastByte();
    } else if (state && ev.type === "error") {
      if (!state.errorCode) {
        state.errorCode = ev.code;
        state.errorMessage = ev.message;
      }
      tl?.markLastByte();
    }
    c.enqueue(ev);
  }
}

