// Messages-protocol request → the surface part of a TurnRequest (svcml-and-prompts.md §3.5, D10.5). Pure.
import { asText, FileCollector, isObject, readTools, remoteImageText } from "../../prompt/content";
import { genericEffortIsHigh, HIGH_EFFORT_BUDGET_TOKENS } from "../../prompt/effort-hint";
import { messagesToolChoice } from "../../prompt/tool-choice";
import type { JsonOutputSpec, ToolCallHistory, Turn } from "../../pipeline/types";
import { normalized, type NormalizedRequest } from "../business-turn";
import { nameToolResults } from "../chat/normalize";
import type { Block, MessagesInput, MessagesMessage, ResultBlock } from "./schema";
import type { ThinkingSwitchBody } from "../body-schema";

export const DEFAULT_MAX_TOKENS = 8192;
export const TOOL_ERROR_PREFIX = "Error: ";

/** An image or document source: base64 uploaded, text returned, a remote image named (D8.14), other URLs dropped. */
function sourceText(b: Block | ResultBlock, files: FileCollector): string {
  const src = b.source;
  if (!src) return "";
  if (src.type === "base64") files.addBase64(src.data, src.media_type);
  else if (src.type === "text" && typeof src.data === "string") return src.data;
  else if (src.type === "file" && typeof src.file_id === "string") files.addId(src.file_id);
  else if (src.type === "url" && b.type === "image") return remoteImageText(src.url);
  return "";
}

function toolResultText(content: Block["content"], files: FileCollector): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return asText(content);
  const texts: string[] = [];
  for (const b of content) {
    if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
    else if (b.type === "image" || b.type === "document") {
      const t = sourceText(b, files);
      if (t) texts.push(t);
    }
  }
  return texts.join("\n\n");
}

/** Top-level `system` and a `role: "system"` message read alike: a string, or text blocks joined by a blank line. */
function systemText(system: MessagesInput["system"] | MessagesMessage["content"]): string {
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) return "";
  const texts: string[] = [];
  for (const b of system) if (b.type === "text" && typeof b.text === "string") texts.push(b.text);
  return texts.join("\n\n");
}

function systemTurn(system: MessagesInput["system"]): Turn | null {
  if (system === undefined || system === null) return null;
  return { role: "system", text: systemText(system) };
}

/** One message → its turns: tool results first (they answer the previous assistant turn), then its own turn. */
function messageTurns(m: MessagesMessage, role: "user" | "assistant", files: FileCollector, isLast: boolean): Turn[] {
  if (typeof m.content === "string") return [{ role, text: m.content }];
  const results: Turn[] = [];
  const texts: string[] = [];
  const calls: ToolCallHistory[] = [];
  for (const b of m.content) {
    switch (b.type) {
      case "tool_result": {
        const text = toolResultText(b.content, files);
        const of = typeof b.tool_use_id === "string" ? { callId: b.tool_use_id } : {};
        results.push({ role: "tool", text: b.is_error === true ? TOOL_ERROR_PREFIX + text : text, toolResultOf: of });
        break;
      }
      case "text":
        if (typeof b.text === "string") texts.push(b.text);
        break;
      case "image":
      case "document":
        if (role === "user") {
          const t = sourceText(b, files);
          if (t) texts.push(t);
        }
        break;
      case "tool_use":
        if (role === "assistant" && typeof b.name === "string" && b.name) calls.push({ name: b.name, arguments: b.input ?? {}, ...(typeof b.id === "string" ? { id: b.id } : {}) });
        break;
      // thinking and redacted_thinking blocks sent back in history are ignored (decisions.md 7.5, which wins
      // over svcml-and-prompts.md §3.5); server tool blocks and anything else: dropped.
    }
  }
  const own: Turn = { role, text: texts.join("\n\n") };
  if (calls.length) own.toolCalls = calls;
  const empty = own.text === "" && !own.toolCalls;
  // A user message that only carries tool results has no turn of its own; a last empty one does (§3.1).
  if (empty && (results.length > 0 || !(isLast && role === "user"))) return results;
  return [...results, own];
}

/** §3.10 effort hint of the messages surface: `thinking.budget_tokens` ≥ 16000, or a generic high effort. */
export function messagesEffortHint(body: ThinkingSwitchBody): boolean {
  const t = body.thinking;
  if (isObject(t) && typeof t.budget_tokens === "number" && t.budget_tokens >= HIGH_EFFORT_BUDGET_TOKENS) return true;
  return genericEffortIsHigh(body);
}

/** `body` has passed MessagesBody (messages/schema.ts): role and content shapes are settled. */
export function normalizeMessages(body: MessagesInput): NormalizedRequest {
  const files = new FileCollector();
  const turns: Turn[] = [];
  const sys = systemTurn(body.system);
  if (sys) turns.push(sys);
  const messages = body.messages;
  messages.forEach((raw, i) => {
    // Agent clients put system messages mid-conversation (beta mid-conversation-system-2026-04-07, issue 16):
    // a system turn at that point, which the serialiser writes as a system block in place (§3.2 item 1).
    if (raw.role === "system") turns.push({ role: "system", text: systemText(raw.content) });
    else turns.push(...messageTurns(raw, raw.role, files, i === messages.length - 1));
  });
  // Server-side tools (web search, code execution…) have no input_schema and run nowhere here.
  const tools = readTools((body.tools ?? []).filter((t) => t.input_schema !== undefined));
  const { toolChoice, singleCall } = messagesToolChoice(body, tools);
  const passThrough: Record<string, unknown> = { max_tokens: typeof body.max_tokens === "number" ? body.max_tokens : DEFAULT_MAX_TOKENS };
  if (body.temperature !== undefined && body.temperature !== null) passThrough.temperature = body.temperature;
  if (body.top_p !== undefined && body.top_p !== null) passThrough.top_p = body.top_p;
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) passThrough.stop = body.stop_sequences;
  return normalized({ turns: nameToolResults(turns), tools, toolChoice, singleCall, passThrough, highEffortHint: messagesEffortHint(body) }, files);
}

/**
 * Structured output (issue 16 item 5): `output_config.format` and the older `output_format` that the SDK still
 * accepts, both `{type: "json_schema", schema}`.
 */
export function messagesJsonOutput(body: Pick<MessagesInput, "output_config" | "output_format">): JsonOutputSpec | undefined {
  const format = body.output_config?.format ?? body.output_format;
  if (!format || format.type !== "json_schema") return undefined;
  return isObject(format.schema) ? { kind: "json_schema", schema: format.schema } : { kind: "json" };
}
