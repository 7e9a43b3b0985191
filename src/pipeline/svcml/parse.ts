// Whole-text recognition and the thinking fallback (svcml-and-prompts.md §1, §1.12): a finished text is fed to a
// fresh detector as one chunk and flushed, so stream and non-stream agree on every input.
import { SvcmlDetector, type DetectorEvent, type DetectorOptions } from "./detector";
import { TurnAccumulator } from "../turn-accumulator";

export interface ParsedCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
  finished: boolean;
}

export interface ParsedText {
  visibleText: string;
  calls: ParsedCall[];
  events: DetectorEvent[];
}

export function collectEvents(events: DetectorEvent[]): ParsedText {
  // The same accumulator as a turn's non-stream result: a whole-text parse and a stream cannot disagree.
  const acc = new TurnAccumulator();
  for (const e of events) acc.push(e);
  return { visibleText: acc.text, calls: acc.calls, events };
}

export function parseWholeText(text: string, opts: DetectorOptions = {}): ParsedText {
  const d = new SvcmlDetector(opts);
  return collectEvents([...d.push(text), ...d.flush()]);
}

/** Finished calls found in the thinking text, for an answer whose visible text is blank (§1.12). */
export function thinkingFallback(thinking: string, opts: DetectorOptions = {}): ParsedCall[] {
  if (!thinking.trim()) return [];
  return parseWholeText(thinking, opts).calls.filter((c) => c.finished);
}
