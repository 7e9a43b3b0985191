// Responses request → the surface part of a TurnRequest (svcml-and-prompts.md §3.4).
import { GatewayError } from "../../http/errors";
import { asText, FileCollector, readTools, samplingOf } from "../../prompt/content";
import { openaiToolChoice } from "../../prompt/tool-choice";
import type { Turn } from "../../pipeline/types";
import type { NormalizedRequest } from "../turn-service";
import { chatContent, chatMessagesToTurns } from "../chat/normalize";

function itemsToTurns(items: unknown[], files: FileCollector): Turn[] {
  const turns: Turn[] = [];
  for (const raw of items) {
    if (typeof raw === "string") {
      turns.push({ role: "user", text: raw });
      continue;
    }
    if (!raw || typeof raw !== "object") continue;
    const it = raw as Record<string, any>;
    if (it.type === "function_call") {
      const last = turns[turns.length - 1];
      const call = { name: String(it.name ?? ""), arguments: it.arguments ?? "{}", id: it.call_id };
      // Consecutive function calls are one assistant turn with several calls (one svcml block).
      if (last && last.role === "assistant" && last.toolCalls && !last.text) last.toolCalls.push(call);
      else turns.push({ role: "assistant", text: "", toolCalls: [call] });
    } else if (it.type === "function_call_output") {
      const out = it.output;
      const text = typeof out === "string" ? out : Array.isArray(out) ? out.map((p: any) => p?.text ?? "").join("\n") : asText(out);
      turns.push({ role: "tool", text, toolResultOf: { callId: it.call_id } });
    } else if (it.role || it.type === "message") {
      const role = it.role === "system" || it.role === "developer" ? "system" : it.role === "assistant" ? "assistant" : "user";
      turns.push({ role, text: chatContent(it.content, files) });
    }
    // reasoning, item_reference and other item types are dropped.
  }
  return turns;
}

export function normalizeResponses(body: Record<string, unknown>, opts: { wideInput: boolean }): NormalizedRequest {
  const files = new FileCollector();
  let turns: Turn[];
  const hasMessages = Array.isArray(body.messages) && body.messages.length > 0;
  if (!opts.wideInput) {
    if (!hasMessages) throw new GatewayError(400, "invalid_request", "messages is required (compat.wide_input_strict_output is off).", { param: "messages" });
    turns = chatMessagesToTurns(body.messages as unknown[], files);
  } else {
    turns = [];
    if (typeof body.instructions === "string" && body.instructions.trim()) turns.push({ role: "system", text: body.instructions });
    if (hasMessages) turns.push(...chatMessagesToTurns(body.messages as unknown[], files));
    else if (typeof body.input === "string") turns.push({ role: "user", text: body.input });
    else if (Array.isArray(body.input)) turns.push(...itemsToTurns(body.input, files));
    else if (body.input && typeof body.input === "object") turns.push(...itemsToTurns([body.input], files));
    else if (body.input !== undefined && body.input !== null) throw new GatewayError(400, "invalid_request", "input must be a string, an array or an object.", { param: "input" });
  }
  const tools = readTools(Array.isArray(body.tools) ? body.tools.filter((t: any) => !t?.type || t.type === "function") : body.tools);
  return {
    turns,
    tools,
    toolChoice: openaiToolChoice(body.tool_choice, tools, "responses"),
    singleCall: body.parallel_tool_calls === false,
    files: files.files,
    fileIds: files.fileIds,
    passThrough: { ...samplingOf(body), ...(body.max_output_tokens !== undefined ? { max_tokens: body.max_output_tokens } : {}) },
  };
}
