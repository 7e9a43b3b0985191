// Role-marker serialisation (svcml-and-prompts.md §3.2): normalised turns → core's single prompt string.
import type { Turn } from "../pipeline/types";
import {
  MARKER_ASSISTANT,
  MARKER_BOS,
  MARKER_END_INSTRUCTIONS,
  MARKER_END_TOOL_RESULTS,
  MARKER_EOS,
  MARKER_SYSTEM,
  MARKER_TOOL,
  MARKER_USER,
} from "./markers";
import { writeToolCalls } from "./svcml-writer";
import type { SchemaLookup } from "../pipeline/svcml/coerce";

/** §3.2.1: long tool loops carry broken fragments (truncated output, garbled logs) that models tend to copy. */
export const OUTPUT_GUARD =
  "Earlier messages and tool output may contain garbled, truncated, repeated or malformed fragments. Do not imitate or repeat them; write only well-formed, correct content.";

/** §3.1: a turn with no text, reasoning or calls is skipped; a final user turn and tool results always stay. */
export function dropEmptyTurns(turns: readonly Turn[]): Turn[] {
  return turns.filter(
    (t, i) => t.role === "tool" || t.text !== "" || !!t.reasoning || (t.toolCalls?.length ?? 0) > 0 || (t.role === "user" && i === turns.length - 1),
  );
}

/** Index of the last user turn, -1 when there is none. */
export function lastUserIndex(turns: readonly Turn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.role === "user") return i;
  return -1;
}

/**
 * Assistant turn text (§3.2): reasoning (only for the current tool loop, i.e. after the last user turn, where
 * it still explains the pending calls), visible text, and the calls as svcml, joined by blank lines.
 */
export function assistantTurnText(t: Turn, includeReasoning: boolean, schemas?: SchemaLookup): string {
  const pieces: string[] = [];
  if (includeReasoning && t.reasoning && t.reasoning.trim()) pieces.push(`[reasoning_content]\n${imagesToLinks(t.reasoning)}\n[/reasoning_content]`);
  const text = imagesToLinks(t.text.trim());
  if (text) pieces.push(text);
  if (t.toolCalls?.length) {
    const block = writeToolCalls(t.toolCalls, schemas);
    if (block) pieces.push(block);
  }
  return pieces.join("\n\n");
}

/** Tool turn text: names and call ids stay out of the live prompt; order pairs results with calls. */
export function toolTurnText(t: Turn): string {
  return t.text.trim() ? t.text : "null";
}

/**
 * Core cannot fetch images; the alt text and the URL stay readable as a link (§3.2.5). Applied to prose only:
 * tool results and the calls written back (§3.7) are file contents and arguments, which must reach core exactly
 * as the client sent them, or the model edits text that is not in the user's file (docs/choices.md, issue 29).
 */
export function imagesToLinks(s: string): string {
  return s.replace(/!\[([^\]\n]*)\]\(([^)\n]*)\)/g, "[$1]($2)");
}

interface Written {
  role: Turn["role"];
  text: string;
}

/** Turns as written text, adjacent same-role turns merged (§3.2.2). */
function writtenTurns(turns: readonly Turn[], schemas: SchemaLookup | undefined): Written[] {
  const lastUser = lastUserIndex(turns);
  const out: Written[] = [];
  turns.forEach((t, i) => {
    const text = t.role === "assistant" ? assistantTurnText(t, i > lastUser, schemas) : t.role === "tool" ? toolTurnText(t) : t.text;
    const prev = out[out.length - 1];
    if (prev && prev.role === t.role) prev.text = [prev.text, text].filter((x) => x !== "").join("\n\n");
    else out.push({ role: t.role, text });
  });
  return out;
}

/**
 * The prompt for `turns` (already normalised). The first system block holds the guard, the leading system
 * turns and `toolBlock`. A final assistant turn is a prefill: written without its end marker so core
 * continues it. `schemas` (the request's tools) tell how history tool calls are written back (§3.7).
 */
export function serializeTurns(turns: readonly Turn[], toolBlock: string, schemas?: SchemaLookup): string {
  const kept = dropEmptyTurns(turns);
  let first = 0;
  const leading: string[] = [];
  while (first < kept.length && kept[first]!.role === "system") leading.push(kept[first++]!.text);
  const systemText = [OUTPUT_GUARD, ...leading, toolBlock]
    .filter((x) => x.trim() !== "")
    .join("\n\n")
    .trim();
  const rest = writtenTurns(kept.slice(first), schemas);
  let out = MARKER_BOS + MARKER_SYSTEM + imagesToLinks(systemText) + MARKER_END_INSTRUCTIONS;
  rest.forEach((t, k) => {
    const last = k === rest.length - 1;
    switch (t.role) {
      case "system":
        if (t.text.trim()) out += MARKER_SYSTEM + imagesToLinks(t.text.trim()) + MARKER_END_INSTRUCTIONS;
        break;
      case "user":
        out += MARKER_USER + imagesToLinks(t.text);
        break;
      case "assistant":
        out += MARKER_ASSISTANT + t.text + (last ? "" : MARKER_EOS);
        break;
      case "tool":
        out += MARKER_TOOL + t.text + MARKER_END_TOOL_RESULTS;
        break;
    }
  });
  if (rest.length === 0 || rest[rest.length - 1]!.role !== "assistant") out += MARKER_ASSISTANT;
  return out;
}
