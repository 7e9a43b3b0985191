// Assistant tool calls from the history written back as svcml (svcml-and-prompts.md §3.7), deterministically,
// in the recommended shell. The contract is a round trip: reading the text back with the recogniser (§1, value
// typing §1.7, string parameters §1.11) gives exactly the same arguments. A string under a string-like schema is
// written as itself (the reader keeps its source text). Rather than re-deriving §1.7's rules for the others, every
// string is checked against the real typing function and written as a JSON string literal when it would not
// read back.
import type { ToolCallHistory } from "../pipeline/types";
import { typeParameterValue } from "../pipeline/svcml/typing";
import { SVCML_WORD } from "../pipeline/svcml/constants";
import { FenceTracker } from "../pipeline/svcml/fence";
import { paramReading, type SchemaLookup } from "../pipeline/svcml/coerce";

const W = SVCML_WORD;
export const WRAPPER_OPEN = `<|${W}|tool_calls>`;
export const WRAPPER_CLOSE = `</|${W}|tool_calls>`;
const INVOKE_CLOSE = `</|${W}|invoke>`;
const PARAM_CLOSE = `</|${W}|parameter>`;

// ASCII-only element names: the recogniser's XML reader accepts nothing wider, so anything else goes as JSON.
const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
// A key that the scanner would take for a tool tag (any noise prefix, §1.1) would end the value early.
const TOOL_TAG_NAME = new RegExp(`^(?:${W}[-_]?)*(?:tool_calls|tool-calls|invoke|parameter)$`, "i");

export function escapeAttribute(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One CDATA section; `]]>` inside is split across two sections (§1.6 reads them back as one). */
export function cdata(s: string): string {
  return `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
}

/**
 * CDATA inside a nested element. The reader decodes entities once over the whole (non-CDATA) parameter body
 * before it parses the elements, so `&` is pre-escaped to survive that decoding unchanged.
 */
function nestedCdata(s: string): string {
  return cdata(s.replaceAll("&", "&amp;"));
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * §1.6: a `]]>` inside a Markdown fence opened within a CDATA value does not end it. A string that leaves a
 * fence open would swallow its own closing `]]>`; its JSON literal has no raw newline, so it opens no fence.
 */
function leavesFenceOpen(s: string): boolean {
  if (!s.includes("```") && !s.includes("~~~")) return false;
  const f = new FenceTracker();
  // The trailing newline settles a run at the very end, erring towards the always-safe JSON form.
  f.feedText(s + "\n");
  return f.inFence;
}

function topString(name: string, s: string): string {
  const plain = cdata(s);
  return !leavesFenceOpen(s) && typeParameterValue(name, plain) === s ? plain : cdata(JSON.stringify(s));
}

// A nested string is read as element text: trimmed, then typed as a JSON literal if it is one. A probe through
// the real reader tells whether the plain form survives that.
function nestedString(s: string): string {
  const plain = nestedCdata(s);
  const probe = typeParameterValue("value", `<a>${plain}</a><b>0</b>`) as Record<string, unknown> | undefined;
  return probe && typeof probe === "object" && probe.a === s ? plain : nestedCdata(JSON.stringify(s));
}

function keyIsWritable(k: string): boolean {
  return XML_NAME.test(k) && !TOOL_TAG_NAME.test(k);
}

/** The body of one value; `indent` is the indentation of the element that holds it. */
function valueBody(v: unknown, indent: string, top: string | null): string {
  if (typeof v === "string") return top !== null ? topString(top, v) : nestedString(v);
  if (v === null || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (v === undefined) return "null";
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return "\n" + v.map((x) => `${inner}<item>${valueBody(x, inner, null)}</item>`).join("\n") + `\n${indent}`;
  }
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    if (!entries.every(([k]) => keyIsWritable(k))) return top !== null ? cdata(JSON.stringify(v)) : nestedCdata(JSON.stringify(v));
    return "\n" + entries.map(([k, x]) => `${inner}<${k}>${valueBody(x, inner, null)}</${k}>`).join("\n") + `\n${indent}`;
  }
  // bigint, functions: not JSON values; written as their text so the call is still shown.
  return cdata(String(v));
}

/**
 * One parameter element, 4 spaces in. Under a string-like schema (`asSource`) a string is its own CDATA text,
 * whatever it looks like (§3.7, §1.11). Otherwise falls back to compact JSON in CDATA when the element form would
 * not read back.
 */
export function writeParameter(name: string, value: unknown, asSource = false): string {
  const open = `    <|${W}|parameter name="${escapeAttribute(name)}">`;
  if (asSource && typeof value === "string") return `${open}${cdata(value)}${PARAM_CLOSE}`;
  let body = valueBody(value, "    ", name);
  if (value !== null && typeof value === "object" && !sameValue(typeParameterValue(name, body), value)) {
    const json = cdata(JSON.stringify(value));
    if (sameValue(typeParameterValue(name, json), value)) body = json;
  }
  return `${open}${body}${PARAM_CLOSE}`;
}

/** The arguments as an object of parameters, or the raw text for the single `arguments` parameter. */
function argumentsOf(raw: unknown): { params: Record<string, unknown> } | { rawText: string } {
  let args = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { params: {} };
    try {
      args = JSON.parse(raw);
    } catch {
      return { rawText: raw };
    }
  }
  if (args === undefined || args === null) return { params: {} };
  if (typeof args === "object" && !Array.isArray(args)) return { params: args as Record<string, unknown> };
  return { rawText: typeof raw === "string" ? raw : JSON.stringify(args) };
}

export function writeInvoke(call: { name: string; arguments: unknown }, schemas?: SchemaLookup): string {
  const head = `  <|${W}|invoke name="${escapeAttribute(call.name)}">`;
  const a = argumentsOf(call.arguments);
  if ("rawText" in a) return [head, `    <|${W}|parameter name="arguments">${cdata(a.rawText)}${PARAM_CLOSE}`, `  ${INVOKE_CLOSE}`].join("\n");
  const entries = Object.entries(a.params);
  if (entries.length === 0) return `${head}${INVOKE_CLOSE}`;
  const asSource = (k: string) => paramReading(schemas, call.name, k) !== "typed";
  return [head, ...entries.map(([k, v]) => writeParameter(k, v, asSource(k))), `  ${INVOKE_CLOSE}`].join("\n");
}

/** The svcml block for the calls of one assistant turn; "" when none has a name. `schemas`: the request's tools. */
export function writeToolCalls(calls: readonly Pick<ToolCallHistory, "name" | "arguments">[], schemas?: SchemaLookup): string {
  const invokes = calls.filter((c) => typeof c.name === "string" && c.name.trim() !== "").map((c) => writeInvoke(c, schemas));
  if (invokes.length === 0) return "";
  return [WRAPPER_OPEN, ...invokes, WRAPPER_CLOSE].join("\n");
}
