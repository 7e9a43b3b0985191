// Prompt building (svcml-and-prompts.md §3): a TurnRequest → core's prompt string, plus the context file for
// long conversations (§3.11). The effort note (§3.10) goes in first so it stays with the latest user turn
// whichever side of the split that turn lands on.
import type { Turn, TurnRequest } from "../pipeline/types";
import { applyCurrentInputFile, type ContextFile, type CurrentInputFileSettings } from "./context-file";
import { jsonOutputBlock } from "./json-instruction";
import { toolInstructionBlock } from "./tool-block";
import { schemaLookup } from "../pipeline/svcml/coerce";

export const EFFORT_NOTE = "This request deserves care: reason it through step by step and check your work before you answer.";

export interface BuiltPrompt {
  prompt: string;
  contextFile?: ContextFile;
  /** Everything core reads as text (context file + live prompt), for the prompt-token estimate (§4.3). */
  promptEstimateText: string;
}

/** §3.10: the note is appended to the latest user turn (after a blank line); turns are copied, not mutated. */
export function withEffortNote(turns: readonly Turn[], on: boolean): Turn[] {
  const copy = turns.map((t) => ({ ...t }));
  if (!on) return copy;
  for (let i = copy.length - 1; i >= 0; i--) {
    const t = copy[i]!;
    if (t.role !== "user") continue;
    t.text = t.text ? `${t.text}\n\n${EFFORT_NOTE}` : EFFORT_NOTE;
    break;
  }
  return copy;
}

export function buildPrompt(req: TurnRequest, opts: { currentInputFile: CurrentInputFileSettings; forceFileMode?: boolean }): BuiltPrompt {
  const turns = withEffortNote(req.turns, req.highEffort && req.thinking);
  const toolBlock = toolInstructionBlock(req.tools, req.toolChoice, req.singleCall);
  const systemBlock = [toolBlock, jsonOutputBlock(req.jsonOutput, toolBlock !== "")].filter((b) => b !== "").join("\n\n");
  const built = applyCurrentInputFile(turns, systemBlock, opts.currentInputFile, opts.forceFileMode ?? false, schemaLookup(req.tools));
  return { ...built, promptEstimateText: built.contextFile ? built.contextFile.text + built.prompt : built.prompt };
}
