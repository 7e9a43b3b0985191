// Chat-completions request → the surface part of a TurnRequest (svcml-and-prompts.md §3.3).
import { GatewayError } from "../../http/errors";
import { asText, FileCollector, readTools, samplingOf } from "../../prompt/content";
import { openaiToolChoice } from "../../prompt/tool-choice";
import type { Turn } from "../../pipeline/types";
import type { NormalizedRequest } from "../turn-service";

/** Text of a content value: a string, or text parts joined by `sep`; inline images and files are collected. */
export function chatContent(content: unknown, files: FileCollector, sep = "\n"): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) return asText(content);
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      texts.push(part);
      continue;
    }
    if (!part || typeof part !== "object") continue;
    const p = part as Record<string, any>;
    if ((p.type === "text" || p.type === "input_text" || p.type === "output_text") && typeof p.text === "string") texts.push(p.text);
    else if (p.type === "image_url") files.addUrl(typeof p.image_url === "string" ? p.image_url : p.image_url?.url, "image");
    else if (p.type === "input_image") {
      if (p.file_id) files.addId(p.file_id);
      else files.addUrl(p.image_url, "image");
    } else if (p.type === "file" || p.type === "input_file") {
      const f = p.file ?? p;
      if (f.file_id) files.addId(f.file_id);
      else if (typeof f.file_data === "string") {
        if (f.file_data.startsWith("data:")) files.addUrl(f.file_data, f.filename ?? "file");
        else files.addBase64(f.file_data, undefined, f.filename ?? "file");
      }
    }
  }
  return texts.join(sep);
}

function reasoningOf(m: Record<string, any>): string | undefined {
  const r = m.reasoning_content;
  if (typeof r === "string") return r;
  if (Array.isArray(r)) return r.map((x) => (typeof x === "string" ? x : (x?.text ?? ""))).join("");
  if (r && typeof r === "object" && typeof r.text === "string") return r.text;
  if (Array.isArray(m.content)) {
    const parts = m.content.filter((p: any) => p && (p.type === "reasoning" || p.type === "thinking"));
    if (parts.length) return parts.map((p: any) => p.text ?? p.thinking ?? "").join("");
  }
  return undefined;
}

export function chatMessagesToTurns(messages: unknown[], files: FileCollector, param = "messages"): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((raw, i) => {
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new GatewayError(400, "invalid_request", `${param}[${i}] must be an object.`, { param: `${param}.${i}` });
    const m = raw as Record<string, any>;
    if (typeof m.role !== "string") throw new GatewayError(400, "invalid_request", `${param}[${i}].role is required.`, { param: `${param}.${i}.role` });
    switch (m.role) {
      case "system":
      case "developer":
        turns.push({ role: "system", text: chatContent(m.content, files) });
        break;
      case "assistant": {
        const calls = [];
        for (const tc of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
          const f = tc?.function;
          if (f && typeof f.name === "string") calls.push({ name: f.name, arguments: f.arguments ?? "{}", id: tc.id });
        }
        if (m.function_call && typeof m.function_call.name === "string") calls.push({ name: m.function_call.name, arguments: m.function_call.arguments ?? "{}" });
        const contentParts = Array.isArray(m.content) ? m.content.filter((p: any) => !(p && (p.type === "reasoning" || p.type === "thinking"))) : m.content;
        turns.push({ role: "assistant", text: chatContent(contentParts, files), reasoning: reasoningOf(m), ...(calls.length ? { toolCalls: calls } : {}) });
        break;
      }
      case "tool":
      case "function":
        turns.push({ role: "tool", text: chatContent(m.content, files), toolResultOf: { name: m.name, callId: m.tool_call_id } });
        break;
      default:
        turns.push({ role: "user", text: chatContent(m.content, files) });
    }
  });
  return turns;
}

export function normalizeChat(body: Record<string, unknown>): NormalizedRequest {
  if (!Array.isArray(body.messages)) throw new GatewayError(400, "invalid_request", "messages must be an array.", { param: "messages" });
  const files = new FileCollector();
  const turns = chatMessagesToTurns(body.messages, files);
  const tools = readTools(body.tools);
  for (const id of [body.file_ids, body.ref_file_ids].flat()) files.addId(id);
  return {
    turns,
    tools,
    toolChoice: openaiToolChoice(body.tool_choice, tools, "chat"),
    singleCall: body.parallel_tool_calls === false,
    files: files.files,
    fileIds: files.fileIds,
    passThrough: samplingOf(body),
  };
}
