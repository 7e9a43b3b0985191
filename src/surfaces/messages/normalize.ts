// Messages-protocol request → the surface part of a TurnRequest (svcml-and-prompts.md §3.5, D10.5).
import { GatewayError } from "../../http/errors";
import { asText, FileCollector, readTools } from "../../prompt/content";
import { messagesToolChoice } from "../../prompt/tool-choice";
import type { Turn } from "../../pipeline/types";
import type { NormalizedRequest } from "../turn-service";

function blockSource(b: Record<string, any>, files: FileCollector, name: string): string {
  const src = b.source;
  if (src?.type === "base64") files.addBase64(src.data, src.media_type, name);
  else if (src?.type === "text" && typeof src.data === "string") return src.data;
  return "";
}

function toolResultText(content: unknown, files: FileCollector): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return asText(content);
  const texts: string[] = [];
  for (const b of content) {
    if (b?.type === "text" && typeof b.text === "string") texts.push(b.text);
    else if (b?.type === "image") blockSource(b, files, "image");
  }
  return texts.join("\n\n");
}

export function normalizeMessages(body: Record<string, unknown>): NormalizedRequest {
  if (!Array.isArray(body.messages)) throw new GatewayError(400, "invalid_request", "messages must be an array.", { param: "messages" });
  const files = new FileCollector();
  const turns: Turn[] = [];
  if (typeof body.system === "string" && body.system) turns.push({ role: "system", text: body.system });
  else if (Array.isArray(body.system)) {
    const text = body.system.filter((b: any) => b?.type === "text").map((b: any) => b.text).join("\n\n");
    if (text) turns.push({ role: "system", text });
  }
  body.messages.forEach((raw, i) => {
    if (!raw || typeof raw !== "object") throw new GatewayError(400, "invalid_request", `messages[${i}] must be an object.`, { param: `messages.${i}` });
    const m = raw as Record<string, any>;
    if (m.role !== "user" && m.role !== "assistant") throw new GatewayError(400, "invalid_request", `messages[${i}].role must be user or assistant.`, { param: `messages.${i}.role` });
    if (typeof m.content === "string") {
      turns.push({ role: m.role, text: m.content });
      return;
    }
    if (!Array.isArray(m.content)) throw new GatewayError(400, "invalid_request", `messages[${i}].content must be a string or an array.`, { param: `messages.${i}.content` });
    const texts: string[] = [];
    const reasoning: string[] = [];
    const calls: { name: string; arguments: unknown; id?: string }[] = [];
    for (const b of m.content as Record<string, any>[]) {
      if (!b || typeof b !== "object") continue;
      if (b.type === "tool_result") {
        // Tool results answer the previous assistant turn, so they come before the rest of this message.
        const text = toolResultText(b.content, files);
        turns.push({ role: "tool", text: b.is_error ? `Error: ${text}` : text, toolResultOf: { callId: b.tool_use_id } });
      } else if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
      else if (m.role === "user" && (b.type === "image" || b.type === "document")) {
        const t = blockSource(b, files, b.type);
        if (t) texts.push(t);
      } else if (m.role === "assistant" && b.type === "thinking" && typeof b.thinking === "string") reasoning.push(b.thinking);
      else if (m.role === "assistant" && b.type === "tool_use" && typeof b.name === "string") calls.push({ name: b.name, arguments: b.input ?? {}, id: b.id });
    }
    const text = texts.join("\n\n");
    const onlyResults = (m.content as Record<string, any>[]).some((b) => b?.type === "tool_result") && !text;
    if (m.role === "user") {
      // A message that only carries tool results adds no user turn of its own.
      if (text || (i === (body.messages as unknown[]).length - 1 && !onlyResults)) turns.push({ role: "user", text });
    } else turns.push({ role: "assistant", text, ...(reasoning.length ? { reasoning: reasoning.join("\n\n") } : {}), ...(calls.length ? { toolCalls: calls } : {}) });
  });
  const tools = readTools(Array.isArray(body.tools) ? body.tools.filter((t: any) => t && t.input_schema !== undefined) : []);
  const { choice, single } = messagesToolChoice(body.tool_choice, tools);
  const pass: Record<string, unknown> = {};
  for (const k of ["max_tokens", "temperature", "top_p"]) if (body[k] !== undefined) pass[k] = body[k];
  if (body.stop_sequences !== undefined) pass.stop = body.stop_sequences;
  const thinking = body.thinking as Record<string, any> | undefined;
  return {
    turns,
    tools,
    toolChoice: choice,
    singleCall: single,
    files: files.files,
    fileIds: files.fileIds,
    passThrough: pass,
    highEffortHint: typeof thinking?.budget_tokens === "number" && thinking.budget_tokens >= 16000,
  };
}
