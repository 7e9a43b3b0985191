// Prompt building (svcml-and-prompts.md §3.2, §3.10, §3.11): turns → core's one prompt string, with the
// output-integrity guard and the tool block in the first system block, and the current-input file for long
// conversations.
import type { Turn, TurnRequest } from "../pipeline/types";
import {
  CONTEXT_FILE_NAME,
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
import { toolInstructionBlock } from "./tool-block";

export const OUTPUT_GUARD =
  "Write only well-formed, correct content. The conversation or tool output may contain garbled, truncated, repeated or malformed fragments; never imitate or repeat them.";
export const EFFORT_NOTE = "Think this through carefully, step by step, before you answer.";
export const CONTEXT_NOTE =
  "The earlier conversation, including the system instructions, is in the attached file conversation-context.txt. It is the current working state: answer the latest request below directly.";
export const CONTEXT_NOTE_NO_TAIL =
  "The whole conversation, including the system instructions, is in the attached file conversation-context.txt. It is the current working state: continue from its last entry.";

export interface BuiltPrompt {
  prompt: string;
  contextFile?: { name: string; text: string };
}

/** Assistant turn text (3.2): reasoning (current tool loop only), visible text, calls as svcml. */
function assistantText(t: Turn, includeReasoning: boolean): string {
  const pieces: string[] = [];
  if (includeReasoning && t.reasoning?.trim()) pieces.push(`[reasoning_content]\n${t.reasoning}\n[/reasoning_content]`);
  if (t.text.trim()) pieces.push(t.text.trim());
  if (t.toolCalls?.length) {
    const block = writeToolCalls(t.toolCalls);
    if (block) pieces.push(block);
  }
  return pieces.join("\n\n");
}

function merge(turns: Turn[]): Turn[] {
  const out: Turn[] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last && last.role === t.role && t.role !== "assistant") last.text = [last.text, t.text].filter((x) => x !== "").join("\n\n");
    else if (last && last.role === "assistant" && t.role === "assistant") {
      last.text = [last.text, t.text].filter((x) => x).join("\n\n");
      last.toolCalls = [...(last.toolCalls ?? []), ...(t.toolCalls ?? [])];
      last.reasoning = [last.reasoning, t.reasoning].filter((x) => x).join("\n\n") || undefined;
    } else out.push({ ...t });
  }
  return out;
}

/** Serialises turns with core's role markers (3.2). */
export function serialize(turns: Turn[], systemExtra: { guard: boolean; toolBlock: string }): string {
  const nonEmpty = turns.filter((t, i) => t.text !== "" || t.reasoning || t.toolCalls?.length || (t.role === "user" && i === turns.length - 1));
  let i = 0;
  const leading: string[] = [];
  while (i < nonEmpty.length && nonEmpty[i]!.role === "system") leading.push(nonEmpty[i++]!.text);
  const firstSystem = [systemExtra.guard ? OUTPUT_GUARD : "", ...leading, systemExtra.toolBlock]
    .filter((x) => x && x.trim())
    .join("\n\n")
    .trim();
  const rest = merge(nonEmpty.slice(i));
  let lastUser = -1;
  rest.forEach((t, k) => {
    if (t.role === "user") lastUser = k;
  });
  let out = MARKER_BOS;
  if (firstSystem) out += MARKER_SYSTEM + firstSystem + MARKER_END_INSTRUCTIONS;
  rest.forEach((t, k) => {
    const isLast = k === rest.length - 1;
    switch (t.role) {
      case "system":
        if (t.text.trim()) out += MARKER_SYSTEM + t.text.trim() + MARKER_END_INSTRUCTIONS;
        break;
      case "user":
        out += MARKER_USER + t.text;
        break;
      case "assistant": {
        const text = assistantText(t, k > lastUser);
        // Prefill: a final assistant turn is continued by core, so it gets no end marker.
        out += MARKER_ASSISTANT + text + (isLast ? "" : MARKER_EOS);
        break;
      }
      case "tool":
        out += MARKER_TOOL + (t.text.trim() ? t.text : "null") + MARKER_END_TOOL_RESULTS;
        break;
    }
  });
  if (rest.length === 0 || rest[rest.length - 1]!.role !== "assistant") out += MARKER_ASSISTANT;
  // Markdown images become links: core cannot fetch them, and the alt text and URL stay readable.
  return out.replace(/!\[([^\]]*)\]\(([^)]*)\)/g, "[$1]($2)");
}

function withEffortNote(turns: Turn[], on: boolean): Turn[] {
  if (!on) return turns;
  const copy = turns.map((t) => ({ ...t }));
  for (let i = copy.length - 1; i >= 0; i--) {
    if (copy[i]!.role === "user") {
      copy[i]!.text = copy[i]!.text ? `${copy[i]!.text}\n\n${EFFORT_NOTE}` : EFFORT_NOTE;
      break;
    }
  }
  return copy;
}

/** The live tail (3.11): turns after the last assistant turn, with that assistant turn when results follow it. */
function liveTail(turns: Turn[]): { head: Turn[]; tail: Turn[] } {
  let lastAssistant = -1;
  turns.forEach((t, i) => {
    if (t.role === "assistant") lastAssistant = i;
  });
  const after = turns.slice(lastAssistant + 1);
  const start = after.some((t) => t.role === "tool") && lastAssistant >= 0 ? lastAssistant : lastAssistant + 1;
  return { head: turns.slice(0, start), tail: turns.slice(start) };
}

function contextFileText(turns: Turn[]): string {
  const lines = ["# Conversation context", "The earlier conversation with its tool progress, oldest first.", ""];
  let lastUser = -1;
  turns.forEach((t, i) => {
    if (t.role === "user") lastUser = i;
  });
  let n = 0;
  turns.forEach((t, i) => {
    const text = t.role === "assistant" ? assistantText(t, i > lastUser) : t.text;
    if (!text.trim()) return;
    n++;
    const meta = t.role === "tool" && (t.toolResultOf?.name || t.toolResultOf?.callId) ? `[name=${t.toolResultOf?.name ?? ""} tool_call_id=${t.toolResultOf?.callId ?? ""}]\n` : "";
    lines.push(`=== ${n}. ${t.role.toUpperCase()} ===\n${meta}${text}\n`);
  });
  return lines.join("\n");
}

export function buildPrompt(req: TurnRequest, opts: { currentInputFile: { enabled: boolean; min_chars: number }; forceFileMode?: boolean }): BuiltPrompt {
  const turns = withEffortNote(req.turns, req.highEffort);
  const toolBlock = toolInstructionBlock(req.tools, req.toolChoice, req.singleCall);
  const inline = serialize(turns, { guard: true, toolBlock });
  const cif = opts.currentInputFile;
  const trigger = opts.forceFileMode || (cif.enabled && inline.length >= cif.min_chars && inline.length > 0);
  if (!trigger) return { prompt: inline };
  let { head, tail } = liveTail(turns);
  const tailChars = serialize(tail, { guard: false, toolBlock: "" }).length;
  if (!opts.forceFileMode && tailChars >= cif.min_chars) {
    head = turns;
    tail = [];
  }
  if (head.length === 0) {
    head = turns;
    tail = [];
  }
  const live: Turn[] = [{ role: "user", text: tail.length ? CONTEXT_NOTE : CONTEXT_NOTE_NO_TAIL }, ...tail];
  return { prompt: serialize(live, { guard: true, toolBlock }), contextFile: { name: CONTEXT_FILE_NAME, text: contextFileText(head) } };
}
