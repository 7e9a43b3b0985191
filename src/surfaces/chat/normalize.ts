// Chat-completions request → the surface part of a TurnRequest (svcml-and-prompts.md §3.3). Pure: no I/O.
import { asText, FileCollector, isObject, readTools, remoteImageText, samplingOf } from "../../prompt/content";
import { genericEffortIsHigh } from "../../prompt/effort-hint";
import { chatToolChoice } from "../../prompt/tool-choice";
import type { JsonOutputSpec, ToolCallHistory, Turn } from "../../pipeline/types";
import { normalized, type NormalizedRequest } from "../business-turn";
import type { ChatInput, ChatMessage, Content, ContentPart } from "./schema";
import type { ThinkingSwitchBody } from "../body-schema";

const TEXT_PARTS: ReadonlySet<string | null | undefined> = new Set(["text", "input_text", "output_text"]);
const REASONING_PARTS: ReadonlySet<string | null | undefined> = new Set(["reasoning", "thinking"]);

function imageUrlOf(p: ContentPart): string | null | undefined {
  const v = p.image_url;
  return typeof v === "object" && v !== null ? v.url : v;
}

type ListItem = Extract<Content, unknown[]>[number];
/** In a list, an object is a part (chat/schema.ts ContentPart); strings are text, other values carry nothing. */
const isPart = (p: ListItem): p is ContentPart => typeof p === "object" && p !== null && !Array.isArray(p);
const isReasoningPart = (p: ListItem): p is ContentPart => isPart(p) && REASONING_PARTS.has(p.type);

/**
 * Text of a content value: a string as is, text parts joined by `sep`. Inline images and files are collected
 * for upload and leave no text; a remote image becomes `[image: url]` (D8.14); other remote files are dropped.
 */
export function chatContent(content: Content | undefined, files: FileCollector, sep = "\n"): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content)) return asText(content);
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      texts.push(part);
      continue;
    }
    if (!isPart(part)) continue;
    const type = part.type;
    if (TEXT_PARTS.has(type) && typeof part.text === "string") texts.push(part.text);
    else if (type === "image_url" || type === "input_image") {
      if (typeof part.file_id === "string") files.addId(part.file_id);
      else {
        const url = imageUrlOf(part);
        if (!files.addDataUrl(url)) {
          const t = remoteImageText(url);
          if (t) texts.push(t);
        }
      }
    } else if (type === "file" || type === "input_file") {
      const f = part.file ?? part;
      const name = f.filename ?? undefined;
      if (typeof f.file_id === "string") files.addId(f.file_id);
      else if (typeof f.file_data === "string") files.addBase64(f.file_data, f.mime_type, name);
    }
    // refusal, audio and unknown parts carry nothing core can use.
  }
  return texts.join(sep);
}

/** reasoning_content (string, parts or {text}), else reasoning/thinking parts inside content. */
function reasoningOf(m: ChatMessage): string | undefined {
  const r = m.reasoning_content;
  if (typeof r === "string") return r;
  if (Array.isArray(r)) return r.map((x) => (typeof x === "string" ? x : (x.text ?? ""))).join("");
  if (typeof r?.text === "string") return r.text;
  if (Array.isArray(m.content)) {
    const parts = m.content.filter(isReasoningPart);
    if (parts.length) return parts.map((p) => p.text ?? p.thinking ?? "").join("\n\n");
  }
  return undefined;
}

function callsOf(m: ChatMessage): ToolCallHistory[] {
  const calls: ToolCallHistory[] = [];
  for (const tc of m.tool_calls ?? []) {
    const f = tc.function;
    if (!f?.name) continue;
    calls.push({ name: f.name, arguments: f.arguments ?? "{}", ...(typeof tc.id === "string" ? { id: tc.id } : {}) });
  }
  const legacy = m.function_call;
  if (legacy?.name) calls.push({ name: legacy.name, arguments: legacy.arguments ?? "{}" });
  return calls;
}

/** Chat messages → turns. Their shape is the schema's (chat/schema.ts ChatMessage). */
export function chatMessagesToTurns(messages: readonly ChatMessage[], files: FileCollector): Turn[] {
  const turns: Turn[] = [];
  for (const raw of messages) {
    switch (raw.role) {
      case "system":
      case "developer":
        turns.push({ role: "system", text: chatContent(raw.content, files) });
        break;
      case "assistant": {
        const calls = callsOf(raw);
        const visible = Array.isArray(raw.content) ? raw.content.filter((x) => !isReasoningPart(x)) : raw.content;
        const reasoning = reasoningOf(raw);
        turns.push({ role: "assistant", text: chatContent(visible, files), ...(reasoning ? { reasoning } : {}), ...(calls.length ? { toolCalls: calls } : {}) });
        break;
      }
      case "tool":
      case "function": {
        const of: { name?: string; callId?: string } = {};
        if (typeof raw.name === "string") of.name = raw.name;
        if (typeof raw.tool_call_id === "string") of.callId = raw.tool_call_id;
        turns.push({ role: "tool", text: chatContent(raw.content, files), toolResultOf: of });
        break;
      }
      default:
        turns.push({ role: "user", text: chatContent(raw.content, files) });
    }
  }
  return nameToolResults(turns);
}

/** A result without a name takes it from the call it answers, for the context file (§3.11). */
export function nameToolResults(turns: Turn[]): Turn[] {
  const byId = new Map<string, string>();
  for (const t of turns) {
    for (const c of t.toolCalls ?? []) if (c.id) byId.set(c.id, c.name);
    if (t.role === "tool" && t.toolResultOf?.callId && !t.toolResultOf.name) {
      const n = byId.get(t.toolResultOf.callId);
      if (n) t.toolResultOf = { ...t.toolResultOf, name: n };
    }
  }
  return turns;
}

/** §3.10 effort hint of the chat surface: `reasoning_effort` / `reasoning` high, xhigh or max. */
export function chatEffortHint(body: ThinkingSwitchBody): boolean {
  return genericEffortIsHigh(body);
}

/** `body` has passed ChatBody (chat/schema.ts): messages is a non-empty list of objects with a role. */
export function normalizeChat(body: ChatInput): NormalizedRequest {
  const files = new FileCollector();
  const turns = chatMessagesToTurns(body.messages, files);
  const tools = readTools(body.tools);
  const { toolChoice, singleCall } = chatToolChoice(body, tools);
  files.addRequestIdLists(body);
  return normalized({ turns, tools, toolChoice, singleCall, passThrough: samplingOf(body), highEffortHint: chatEffortHint(body) }, files);
}

/**
 * Structured output asked by `response_format` (issue 16 item 5): json_object, or json_schema with
 * `json_schema.{name, schema}` (a json_schema without a schema asks for any JSON value). `text` and shapes we do
 * not know ask for nothing, as before.
 */
export function chatJsonOutput(body: Pick<ChatInput, "response_format">): JsonOutputSpec | undefined {
  const rf = body.response_format;
  if (!rf) return undefined;
  if (rf.type === "json_object") return { kind: "json_object" };
  if (rf.type !== "json_schema") return undefined;
  const js = rf.json_schema;
  if (!isObject(js?.schema)) return { kind: "json" };
  return { kind: "json_schema", schema: js.schema, ...(js.name ? { name: js.name } : {}) };
}
