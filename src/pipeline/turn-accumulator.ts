// One accumulator of TurnEvents (issue 17): the non-stream result, the chat history entry, the whole-text svcml
// parse and the assembler's own finish decision all read a turn through this class, so what a stream showed and
// what a non-stream body says cannot drift apart. It only appends; it never changes or drops an event.
import type { FinishedCall, FinishOutcome, TurnEvent, TurnResult, Usage } from "./types";

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

const ZERO_USAGE: Usage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0, totalTokens: 0 };

export class TurnAccumulator {
  thinking = "";
  text = "";
  readonly parts: TurnResult["parts"] = [];
  readonly calls: FinishedCall[] = [];
  outcome: FinishOutcome = "stop";
  usage: Usage = { ...ZERO_USAGE };
  error: Extract<TurnEvent, { type: "error" }> | null = null;
  /** Non-blank answer text or a call reached the client: a retry would no longer be invisible (D9.6). */
  shownAnswer = false;
  /** Thinking text reached the client. */
  shownThinking = false;
  /** Calls announced, and how many of them ended. */
  finishedCalls = 0;
  private readonly byIndex = new Map<number, FinishedCall>();

  push(ev: TurnEvent): void {
    switch (ev.type) {
      case "thinking":
        this.thinking += ev.text;
        if (ev.text) this.shownThinking = true;
        return;
      case "text": {
        this.text += ev.text;
        if (!this.shownAnswer && ev.text.trim() !== "") this.shownAnswer = true;
        const last = this.parts[this.parts.length - 1];
        if (last?.type === "text") last.text += ev.text;
        else this.parts.push({ type: "text", text: ev.text });
        return;
      }
      case "call_start": {
        const call: FinishedCall = { index: ev.index, id: ev.id, name: ev.name, arguments: "", finished: false };
        this.byIndex.set(ev.index, call);
        this.calls.push(call);
        this.parts.push({ type: "call", call });
        this.shownAnswer = true;
        return;
      }
      case "call_args": {
        const call = this.byIndex.get(ev.index);
        if (call) call.arguments += ev.fragment;
        return;
      }
      case "call_end": {
        const call = this.byIndex.get(ev.index);
        if (call && !call.finished) {
          call.finished = true;
          this.finishedCalls++;
        }
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
