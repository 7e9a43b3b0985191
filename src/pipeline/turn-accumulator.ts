// One accumulator of TurnEvents (issue 17): the non-stream result, the chat history entry, the whole-text svcml
// parse and the assembler's own finish decision all read a turn through this class, so what a stream showed and
// what a non-stream body says cannot drift apart. It only appends; it never changes or drops an event.
import type { FinishedCall, FinishOutcome, TurnEvent, TurnResult, Usage } from "./types";
import { RopeBound } from "../util/rope-bound";
import { none, pushed } from "../util/none";

/**
 * Whether an event puts something of the answer in front of the client: thinking text, non-blank answer text or
 * a call. Before the first such event a retry is invisible to the client (D9.6).
 */
export function showsAnswer(ev: TurnEvent): boolean {
  switch (ev.type) {
    case "thinking":
      return ev.text !== "";
    case "text":
      return ev.text.trim() !== "";
    case "call_start":
      return true;
    default:
      return false;
  }
}

/** Shared (frozen): a turn's usage is replaced by its finish's, never changed in place. */
const ZERO_USAGE: Usage = Object.freeze({ promptTokens: 0, completionTokens: 0, reasoningTokens: 0, totalTokens: 0 });

export class TurnAccumulator {
  thinking = "";
  // The shared empty lists until the first part or call (issue 35: an open stream keeps its accumulators).
  parts: TurnResult["parts"] = none();
  calls: FinishedCall[] = none();
  outcome: FinishOutcome = "stop";
  usage: Usage = ZERO_USAGE;
  error: Extract<TurnEvent, { type: "error" }> | null = null;
  /** Non-blank answer text or a call reached the client: a retry would no longer be invisible (D9.6). */
  shownAnswer = false;
  /** Non-blank answer text reached the client. */
  shownText = false;
  /** Thinking text reached the client. */
  shownThinking = false;
  /** Calls announced, and how many of them ended. */
  finishedCalls = 0;
  // Made on first use: most turns have no calls, and a "facts" accumulator keeps no text (issue 35: an open
  // stream keeps its accumulators for as long as it lives).
  private byIndex: Map<number, FinishedCall> | null = null;
  // The texts grow a piece per event for as long as the stream is open (see RopeBound).
  private thinkingBound: RopeBound | null = null;
  private partBound: RopeBound | null = null;
  private argsBound: Map<number, RopeBound> | null = null;

  /**
   * `facts`: only what the events tell about the turn (shown, calls announced and ended), none of its text. The
   * assembler decides the finish from these while the stream is open; keeping the texts there too held the answer
   * twice more per open stream (issue 17, memory of active streams).
   */
  constructor(private readonly keep: "all" | "facts" = "all") {}

  /** The answer text: its text parts joined (kept once, as the parts; read when the turn is over). */
  get text(): string {
    let text = "";
    for (const part of this.parts) if (part.type === "text") text += part.text;
    return text;
  }

  push(ev: TurnEvent): void {
    switch (ev.type) {
      case "thinking":
        if (ev.text) this.shownThinking = true;
        if (this.keep === "all") (this.thinkingBound ??= new RopeBound()).grew((this.thinking += ev.text), ev.text.length);
        return;
      case "text": {
        if (!this.shownText && ev.text.trim() !== "") this.shownText = this.shownAnswer = true;
        if (this.keep === "facts") return;
        const last = this.parts[this.parts.length - 1];
        if (last?.type === "text") (this.partBound ??= new RopeBound()).grew((last.text += ev.text), ev.text.length);
        else {
          this.parts = pushed(this.parts, { type: "text", text: ev.text });
          this.partBound?.reset(ev.text.length);
        }
        return;
      }
      case "call_start": {
        const call: FinishedCall = { index: ev.index, id: ev.id, name: ev.name, arguments: "", finished: false };
        (this.byIndex ??= new Map()).set(ev.index, call);
        this.calls = pushed(this.calls, call);
        this.parts = pushed(this.parts, { type: "call", call });
        this.shownAnswer = true;
        return;
      }
      case "call_args": {
        const call = this.byIndex?.get(ev.index);
        if (!call || this.keep === "facts") return;
        const bounds = (this.argsBound ??= new Map());
        let bound = bounds.get(ev.index);
        if (!bound) bounds.set(ev.index, (bound = new RopeBound()));
        bound.grew((call.arguments += ev.fragment), ev.fragment.length);
        return;
      }
      case "call_end": {
        const call = this.byIndex?.get(ev.index);
        if (call && !call.finished) {
          call.finished = true;
          this.finishedCalls++;
        }
        this.argsBound?.delete(ev.index);
        return;
      }
      case "finish":
        this.outcome = ev.outcome;
        this.usage = ev.usage;
        return;
      case "error":
        this.error = ev;
        return;
      case "keepalive":
        return;
    }
  }

  /** Calls announced and not ended (an answer cut inside a call ends with finish reason `length`). */
  get openCalls(): number {
    return this.calls.length - this.finishedCalls;
  }

  result(): TurnResult {
    return { thinking: this.thinking, text: this.text, parts: this.parts, calls: this.calls, outcome: this.outcome, usage: this.usage };
  }
}
