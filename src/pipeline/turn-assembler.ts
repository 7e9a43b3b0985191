// CoreEvent → TurnEvent: the back half of the pipeline (svcml-and-prompts.md §2.1, §4.1; D9.5–D9.7).
// Answer text goes through the svcml detector in tool mode and then the visible-output cleaner; thinking
// is shown only when exposed but always kept for the thinking fallback and for usage.
import type { CoreEvent, FinishOutcome, TurnEvent } from "./types";
import { computeUsage } from "./usage";
import { TurnAccumulator } from "./turn-accumulator";
import { RopeBound } from "../util/rope-bound";

export type DetectorEvent =
  | { type: "text"; text: string }
  | { type: "call_start"; index: number; id: string; name: string }
  | { type: "call_args"; index: number; fragment: string }
  | { type: "call_end"; index: number };

export interface DetectorLike {
  push(chunk: string): DetectorEvent[];
  flush(): DetectorEvent[];
}

export interface CleanerLike {
  push(chunk: string): string;
  flush(): string;
}

export interface FallbackCall {
  name: string;
  arguments: string;
}

export interface AssemblerOptions {
  exposeThinking: boolean;
  /** Tool mode: a detector for the answer text (absent without tools). */
  detector?: DetectorLike;
  /** Runs the thinking fallback (1.12); absent outside tool mode and with tool_choice none. */
  fallback?: (thinking: string) => FallbackCall[];
  newCallId: () => string;
  textCleaner: CleanerLike;
  thinkingCleaner: CleanerLike;
  /** Local estimate of the prompt's tokens (for D9.7). */
  promptTokens: number;
  /** Sees each round's start (the `ready` echo), e.g. to check the model_type echo (§7.14). An object, not a closure: an open stream keeps it. */
  roundWatch?: { round(ev: Extract<CoreEvent, { type: "round" }>): void };
}

/** The assembler's record of the turn: what the thinking fallback and usage read, and how the answer ended. */
export interface AssemblerReport {
  outcome?: FinishOutcome;
  errorCode?: string;
  thinking: string;
  rawAnswer: string;
}

/**
 * The assembler as a plain step (CoreEvent in, TurnEvents out through `emit`): core-to-turn.ts joins it with the
 * reducer into the detector stage (issue 17).
 */
export class TurnAssembler {
  // What this step emitted, read through the same accumulator as the non-stream result (issue 17): the finish
  // decision and the runner's retry facts come from the events themselves.
  private readonly acc = new TurnAccumulator("facts");
  // Made with the first text of their channel: a stream may stay silent, or have no thinking.
  private thinkingBound: RopeBound | null = null;
  private answerBound: RopeBound | null = null;
  private upstreamTotal: number | undefined;

  constructor(
    private readonly opts: AssemblerOptions,
    private readonly report: AssemblerReport,
  ) {}

  push(ev: CoreEvent, emit: (ev: TurnEvent) => void): void {
    const { opts, report } = this;
    switch (ev.type) {
      case "thinking": {
        (this.thinkingBound ??= new RopeBound()).grew((report.thinking += ev.text), ev.text.length);
        if (opts.exposeThinking) this.out(emit, opts.thinkingCleaner.push(ev.text), "thinking");
        return;
      }
      case "text": {
        (this.answerBound ??= new RopeBound()).grew((report.rawAnswer += ev.text), ev.text.length);
        if (opts.detector) this.emitDetector(emit, opts.detector.push(ev.text));
        else this.out(emit, opts.textCleaner.push(ev.text), "text");
        return;
      }
      case "usage":
        this.upstreamTotal = ev.tokens;
        return;
      case "keepalive":
        emit({ type: "keepalive" });
        return;
      case "round":
        opts.roundWatch?.round(ev);
        return;
      case "references":
        return;
      case "end": {
        if (opts.exposeThinking) this.out(emit, opts.thinkingCleaner.flush(), "thinking");
        if (opts.detector) this.emitDetector(emit, opts.detector.flush());
        this.out(emit, opts.textCleaner.flush(), "text");
        const acc = this.acc;
        for (const e of finishTurn({ acc, end: ev, report, upstreamTotal: this.upstreamTotal, promptTokens: opts.promptTokens, fallback: opts.fallback, newCallId: opts.newCallId })) emit(e);
        return;
      }
    }
  }

  /** Emits a non-empty piece of text or thinking. */
  private out(emit: (ev: TurnEvent) => void, text: string, type: "text" | "thinking"): void {
    if (!text) return;
    this.emitEvent(emit, { type, text });
  }

  private emitEvent(emit: (ev: TurnEvent) => void, ev: TurnEvent): void {
    this.acc.push(ev);
    emit(ev);
  }

  private emitDetector(emit: (ev: TurnEvent) => void, events: DetectorEvent[]): void {
    for (const ev of events) {
      if (ev.type === "text") {
        this.out(emit, this.opts.textCleaner.push(ev.text), "text");
        continue;
      }
      // Text before a block is final once a call starts: release what the cleaner holds.
      if (ev.type === "call_start") this.out(emit, this.opts.textCleaner.flush(), "text");
      this.emitEvent(emit, ev);
    }
  }
}

/**
 * The finish step (the design's `finish`), part of the detector stage but a function of its own: once
 * core's answer ended and the detector and cleaners are flushed, what closes the turn — a failure as a typed
 * error event, the thinking fallback's calls (1.12), the empty-output error (D9.6) or the finish with its reason
 * and usage. `acc` holds what the stage emitted; the fallback's calls are added to it.
 */
export function finishTurn(a: {
  acc: TurnAccumulator;
  end: Extract<CoreEvent, { type: "end" }>;
  report: AssemblerReport;
  upstreamTotal: number | undefined;
  promptTokens: number;
  fallback?: (thinking: string) => FallbackCall[];
  newCallId: () => string;
}): TurnEvent[] {
  const { acc, end, report } = a;
  if (end.outcome === "error") {
    report.errorCode = end.code ?? "upstream_error";
    return [inStreamError(report.errorCode)];
  }
  const out: TurnEvent[] = [];
  const push = (e: TurnEvent) => {
    acc.push(e);
    out.push(e);
  };
  const contentFilter = end.outcome === "content_filter";
  if (a.fallback && acc.calls.length === 0 && !acc.shownText && report.thinking) {
    for (const call of a.fallback(report.thinking)) {
      const index = acc.calls.length;
      push({ type: "call_start", index, id: a.newCallId(), name: call.name });
      push({ type: "call_args", index, fragment: call.arguments });
      push({ type: "call_end", index });
    }
  }
  // D9.6: no visible text and no call is an empty output (thinking alone does not count),
  // unless core filtered the answer (D9.5 renders that as a content-filter finish).
  if (acc.calls.length === 0 && !acc.shownText && !contentFilter) {
    report.errorCode = "upstream_empty_output";
    out.push({ type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." });
    return out;
  }
  const outcome: FinishOutcome = acc.openCalls > 0 ? "length" : acc.finishedCalls > 0 ? "tool_calls" : contentFilter ? "content_filter" : "stop";
  report.outcome = outcome;
  const usage = computeUsage({ upstreamTotal: a.upstreamTotal, promptEstimate: a.promptTokens, reasoningText: report.thinking, answerText: report.rawAnswer });
  out.push({ type: "finish", outcome, usage });
  return out;
}

export function newReport(): AssemblerReport {
  return { thinking: "", rawAnswer: "" };
}

/**
 * A failure of core after the answer started, as the client sees it: a code of D4.3 and the gateway's own words.
 * Core's and the runtime's texts (socket errors, "pass verbose: true") stay out of client responses; the raw
 * rounds are in the dev captures.
 */
export function inStreamError(coreCode: string): Extract<TurnEvent, { type: "error" }> {
  switch (coreCode) {
    case "upstream_timeout":
      return { type: "error", status: 503, code: "upstream_timeout", message: "Core sent nothing for too long; the answer is incomplete." };
    case "upstream_empty_output":
      return { type: "error", status: 503, code: "upstream_empty_output", message: "Core returned an empty answer." };
    case "input_exceeds_limit":
      return { type: "error", status: 400, code: "context_length_exceeded", message: "The conversation is too long for the model." };
    default:
      return { type: "error", status: 503, code: "upstream_unavailable", message: "Core failed while answering; the answer is incomplete." };
  }
}
