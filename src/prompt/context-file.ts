// current_input_file (svcml-and-prompts.md §3.11): a long conversation moves into an attached plain-text file
// and the live prompt keeps only the latest request (the live tail). Core takes long transcripts better as a
// file than inline, but a file costs an upload and blunts answers, hence the threshold.
import type { Turn } from "../pipeline/types";
import { CONTEXT_FILE_NAME } from "./markers";
import type { SchemaLookup } from "../pipeline/svcml/coerce";
import { assistantTurnText, dropEmptyTurns, lastUserIndex, serializeTurns } from "./serialize";

export interface CurrentInputFileSettings {
  enabled: boolean;
  min_chars: number;
}

export interface ContextFile {
  name: typeof CONTEXT_FILE_NAME;
  text: string;
}

export const CONTEXT_FILE_TITLE = "Conversation context";
export const CONTEXT_FILE_SUMMARY = "The earlier part of this conversation, oldest first, including the system instructions, the tool calls and their results.";
export const CONTEXT_NOTE =
  "The earlier conversation, including the system instructions, is in the attached file conversation-context.txt and is the current working state. Answer the latest request below directly.";
export const CONTEXT_NOTE_NO_TAIL =
  "The whole conversation, including the system instructions, is in the attached file conversation-context.txt and is the current working state. Continue from its last entry.";

/**
 * Splits the turns into the file part and the live tail: the trailing user/tool turns after the last assistant
 * turn, with that assistant turn in front when the tail holds tool results (they are read against its calls).
 * A system turn among them (a mid-conversation system message, issue 16) stays live in its place, so a system
 * message sent after the latest request does not push that request into the file; the leading system turns
 * (the client's system prompt) always go to the file.
 */
export function splitLiveTail(turns: readonly Turn[]): { head: Turn[]; tail: Turn[] } {
  let leading = 0;
  while (leading < turns.length && turns[leading]!.role === "system") leading++;
  const live = (t: Turn) => t.role === "user" || t.role === "tool" || t.role === "system";
  let start = turns.length;
  while (start > leading && live(turns[start - 1]!)) start--;
  const hasResults = turns.slice(start).some((t) => t.role === "tool");
  if (hasResults && start > 0 && turns[start - 1]!.role === "assistant") start--;
  return { head: turns.slice(0, start), tail: turns.slice(start) };
}

function turnText(t: Turn, includeReasoning: boolean, schemas?: SchemaLookup): string {
  return t.role === "assistant" ? assistantTurnText(t, includeReasoning, schemas) : t.text;
}

/** The file: title, summary, blank line, then one `=== N. ROLE ===` entry per turn with content. */
export function contextFileText(turns: readonly Turn[], lastUser: number, schemas?: SchemaLookup): string {
  let out = `${CONTEXT_FILE_TITLE}\n${CONTEXT_FILE_SUMMARY}\n\n`;
  let n = 0;
  turns.forEach((t, i) => {
    const text = turnText(t, i > lastUser, schemas);
    if (!text.trim() && t.role !== "tool") return;
    const meta: string[] = [];
    if (t.role === "tool" && t.toolResultOf?.name) meta.push(`name=${t.toolResultOf.name}`);
    if (t.role === "tool" && t.toolResultOf?.callId) meta.push(`tool_call_id=${t.toolResultOf.callId}`);
    n++;
    out += `=== ${n}. ${t.role.toUpperCase()} ===\n${meta.length ? `[${meta.join(" ")}]\n` : ""}${text}\n\n`;
  });
  return out;
}

function writtenLength(turns: readonly Turn[], lastUserInAll: number, offset: number, schemas?: SchemaLookup): number {
  return turns.reduce((sum, t, i) => sum + turnText(t, offset + i > lastUserInAll, schemas).length, 0);
}

/**
 * The prompt for `turns`, in file mode when the inline prompt reaches `min_chars` (or `force`, the retry after
 * core rejected an inline prompt as too long).
 */
export function applyCurrentInputFile(
  turns: readonly Turn[],
  toolBlock: string,
  settings: CurrentInputFileSettings,
  force = false,
  schemas?: SchemaLookup,
): { prompt: string; contextFile?: ContextFile } {
  const inline = serializeTurns(turns, toolBlock, schemas);
  const kept = dropEmptyTurns(turns);
  const trigger = force || (settings.enabled && kept.length > 0 && inline.length >= Math.max(0, settings.min_chars));
  if (!trigger || kept.length === 0) return { prompt: inline };
  const lastUser = lastUserIndex(kept);
  let { head, tail } = splitLiveTail(kept);
  // A tail that is itself too long gains nothing from staying inline: everything goes to the file.
  if (tail.length > 0 && writtenLength(tail, lastUser, head.length, schemas) >= settings.min_chars) {
    head = kept;
    tail = [];
  }
  // Nothing earlier to move (the length came from the tool block): a file would only cost an upload.
  if (head.length === 0) {
    if (!force) return { prompt: inline };
    head = kept;
    tail = [];
  }
  const live: Turn[] = [{ role: "user", text: tail.length ? CONTEXT_NOTE : CONTEXT_NOTE_NO_TAIL }, ...tail];
  return {
    prompt: serializeTurns(live, toolBlock, schemas),
    contextFile: { name: CONTEXT_FILE_NAME, text: contextFileText(head, lastUser, schemas) },
  };
}
