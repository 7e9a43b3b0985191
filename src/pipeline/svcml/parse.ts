// Whole-text recognition and the thinking fallback (svcml-and-prompts.md §1, §1.12): a finished text is fed to a
// fresh detector as one chunk and flushed, so stream and non-stream agree on every input.
import { SvcmlDetector, type DetectorEvent, type DetectorOptions } from "./detector";

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
  let visibleText = "";
  const calls: ParsedCall[] = [];
  for (const e of events) {
    if (e.type === "text") visibleText += e.text;
    else if (e.type === "call_start") calls[e.index] = { index: e.index, id: e.id, name: e.name, arguments: "", finished: false };
    else if (e.type === "call_args") calls[e.index]!.arguments += e.fragment;
    else if (e.type === "call_end") calls[e.index]!.finished = true;
  }
  return { visibleText, calls: calls.filter(Boolean), events };
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
