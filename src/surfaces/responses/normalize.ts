// Responses request → the surface part of a TurnRequest (svcml-and-prompts.md §3.4, D10.2). Pure: no I/O.
// previous_response_id is resolved by the route (it needs the store); this reads the request's own input.
import { asText, FileCollector, isObject, readTools, samplingOf } from "../../prompt/content";
import { invalidRequest as invalid } from "../../util/invalid-request";
import { genericEffortIsHigh } from "../../prompt/effort-hint";
import { responsesToolChoice } from "../../prompt/tool-choice";
import type { JsonOutputSpec, Turn } from "../../pipeline/types";
import { normalized, type NormalizedRequest } from "../business-turn";
import { chatContent, chatMessagesToTurns, nameToolResults } from "../chat/normalize";
import { CUSTOM_INPUT_PARAM, declaredToolList, flatNameOf, flattenNamespaceTools, flattenToolChoice } from "./namespace-tools";
import type { InputItem, InputItemObject, ResponsesInput } from "./schema";
import type { ThinkingSwitchBody } from "../body-schema";

function roleOf(role: string): Turn["role"] {
  if (role === "system" || role === "developer") return "system";
  if (role === "assistant") return "assistant";
  if (role === "tool" || role === "function") return "tool";
  return "user";
}

function outputText(out: unknown): string {
  if (typeof out === "string") return out;
  if (Array.isArray(out)) return out.map((p) => (typeof p === "string" ? p : isObject(p) && typeof p.text === "string" ? p.text : "")).filter((x) => x !== "").join("\n");
  return asText(out);
}

/** `input` items → turns. Consecutive function_call items become one assistant turn (one svcml block). */
export function inputItemsToTurns(items: readonly InputItem[], files: FileCollector, param = "input", single = false): Turn[] {
  const turns: Turn[] = [];
  let callRun: Turn | null = null;
  items.forEach((raw, i) => {
    // `input` sent as one item object is named `input`, not `input.0` (the client never wrote an index).
    const p = single ? param : `${param}.${i}`;
    if (typeof raw === "string") {
      callRun = null;
      turns.push({ role: "user", text: raw });
      return;
    }
    // Strings and objects only (responses/schema.ts InputItem); an object's meaning depends on its type.
    if (raw.type === "function_call" || raw.type === "custom_tool_call") {
      if (!raw.name) throw invalid(`${p}.name is required.`, `${p}.name`);
      // A call to a namespaced tool comes back as name + namespace; core knows it by its flat name. A custom
      // tool's raw input is the one `input` argument core was taught.
      const args = raw.type === "custom_tool_call" ? JSON.stringify({ [CUSTOM_INPUT_PARAM]: raw.input ?? "" }) : (raw.arguments ?? "{}");
      const call = { name: flatNameOf(raw.name, raw.namespace), arguments: args, ...(typeof raw.call_id === "string" ? { id: raw.call_id } : {}) };
      if (callRun) callRun.toolCalls!.push(call);
      else {
        callRun = { role: "assistant", text: "", toolCalls: [call] };
        turns.push(callRun);
      }
      return;
    }
    callRun = null;
    if (raw.type === "function_call_output" || raw.type === "custom_tool_call_output") {
      turns.push({ role: "tool", text: outputText(raw.output), toolResultOf: typeof raw.call_id === "string" ? { callId: raw.call_id } : {} });
    } else if (raw.type === "message" || (raw.type === undefined && raw.role !== undefined)) {
      const { role: rawRole, content } = checkMessageItem(raw, p);
      const role = roleOf(rawRole);
      const text = chatContent(content, files);
      turns.push(role === "tool" ? { role, text, toolResultOf: {} } : { role, text });
    }
    // reasoning, item_reference and every other item type are dropped (never rendered as text).
  });
  return nameToolResults(turns);
}

/**
 * A message item's own shape, refused with its dotted param like the other surfaces refuse a bad message
 * (issue 30 item 7): `role` a non-empty string, `content` a string or a list of parts. A role we do not know
 * by name stays a user turn (roleOf), as it always has.
 */
function checkMessageItem(raw: InputItemObject, p: string): { role: string; content: string | Extract<InputItemObject["content"], unknown[]> } {
  const { role, content } = raw;
  if (typeof role !== "string" || !role) throw invalid(`${p}.role must be a non-empty string.`, `${p}.role`);
  if (typeof content !== "string" && !Array.isArray(content)) throw invalid(`${p}.content must be a string or a list of content parts.`, `${p}.content`);
  return { role, content };
}

/** §3.10 effort hint of the responses surface: `reasoning.effort` (or the generic switches) high, xhigh or max. */
export function responsesEffortHint(body: ThinkingSwitchBody): boolean {
  return genericEffortIsHigh(body);
}

/** Built-in tool types (web search, file search, computer use…) have no place in the prompt; namespaces are read apart. */
function functionTools(raw: readonly unknown[]): unknown[] {
  return raw.filter((t) => isObject(t) && (t.type === undefined || t.type === "function"));
}

export function normalizeResponses(body: ResponsesInput, opts: { wideInput: boolean }): NormalizedRequest {
  const files = new FileCollector();
  // Field shapes are ResponsesBody's (responses/schema.ts); which fields this mode accepts is decided here.
  const messages = body.messages ?? [];
  const hasMessages = messages.length > 0;
  const turns: Turn[] = [];
  if (!opts.wideInput) {
    // D10.2: the strict mode reads only `messages`; the wide fields are refused rather than silently ignored.
    if (body.input !== undefined && body.input !== null) throw invalid("input is not accepted (compat.wide_input_strict_output is off); send messages.", "input");
    if (body.instructions !== undefined && body.instructions !== null) throw invalid("instructions is not accepted (compat.wide_input_strict_output is off); send messages.", "instructions");
    if (!hasMessages) throw invalid("messages is required (compat.wide_input_strict_output is off).", "messages");
    turns.push(...chatMessagesToTurns(messages, files));
  } else {
    if (body.instructions?.trim()) turns.push({ role: "system", text: body.instructions });
    const input = body.input;
    if (hasMessages) turns.push(...chatMessagesToTurns(messages, files));
    else if (typeof input === "string") turns.push({ role: "user", text: input });
    else if (Array.isArray(input)) turns.push(...inputItemsToTurns(input, files));
    else if (input) turns.push(...inputItemsToTurns([input], files, "input", true));
  }
  const declared = declaredToolList(body);
  const namespaced = flattenNamespaceTools(declared);
  const tools = readTools([...functionTools(declared), ...namespaced.tools]);
  const choiceBody = namespaced.names.size ? { ...body, tool_choice: flattenToolChoice(body.tool_choice, declared, namespaced.names) } : body;
  const { toolChoice, singleCall } = responsesToolChoice(choiceBody, tools);
  files.addRequestIdLists(body);
  const passThrough = samplingOf(body);
  if (typeof body.max_output_tokens === "number") passThrough.max_tokens = body.max_output_tokens;
  return normalized({ turns, tools, toolChoice, singleCall, passThrough, highEffortHint: responsesEffortHint(body) }, files);
}

/** Structured output asked by `text.format` (issue 16 item 5): json_object, or json_schema with `name` and `schema`. */
export function responsesJsonOutput(body: Pick<ResponsesInput, "text">): JsonOutputSpec | undefined {
  const format = body.text?.format;
  if (!format) return undefined;
  if (format.type === "json_object") return { kind: "json_object" };
  if (format.type !== "json_schema") return undefined;
  if (!isObject(format.schema)) return { kind: "json" };
  return { kind: "json_schema", schema: format.schema, ...(format.name ? { name: format.name } : {}) };
}
