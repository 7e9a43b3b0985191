// Structured output (issue 16 item 5; docs/choices.md "Structured output"): the JSON value inside core's
// answer. Core has no JSON mode, so even when told to answer with JSON alone it sometimes wraps the value in a
// Markdown fence or a sentence. This finds the value and returns its text exactly as core wrote it (never
// re-serialised: key order, number spelling and escapes stay the model's). Pure.

export type JsonKind = "object" | "array" | "any";

export interface ExtractedJson {
  /** The JSON text when ok; otherwise the whole answer, trimmed (returned as is). */
  json: string;
  ok: boolean;
  /** Why no value was found, in words core can act on (it is quoted in the retry). */
  problem?: string;
  /** The parsed value when ok. */
  value?: unknown;
}

/** Bracket starts tried at most, so prose full of `[1]`-style references cannot make the search quadratic. */
const MAX_CANDIDATES = 64;

function parse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

const kindOf = (v: unknown): JsonKind | "other" => (Array.isArray(v) ? "array" : v !== null && typeof v === "object" ? "object" : "other");
const fits = (v: unknown, want: JsonKind) => want === "any" || kindOf(v) === want;

/** The bodies of Markdown fences (``` or ~~~, any info string), in order; an unclosed last fence runs to the end. */
export function fenceBodies(text: string): { info: string; body: string }[] {
  const out: { info: string; body: string }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^[ \t]*(`{3,}|~{3,})[ \t]*([^`\n]*?)[ \t]*\r?$/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = /^[ \t]*(`{3,}|~{3,})[ \t]*\r?$/.exec(lines[j]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      body.push(lines[j]!);
    }
    out.push({ info: open[2]!.toLowerCase(), body: body.join("\n") });
    i = j;
  }
  return out;
}

/** End index (inclusive) of the bracketed value starting at `start`, strings and escapes respected; -1 if unclosed. */
export function matchingBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") stack.push(ch === "{" ? "}" : "]");
    else if (ch === "}" || ch === "]") {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The first balanced `{…}` / `[…]` span that parses and fits `want`, scanning left to right. */
function bracketed(text: string, want: JsonKind): { value: unknown; json: string } | { unclosed: boolean; error?: string } {
  let tried = 0;
  let unclosed = false;
  let error: string | undefined;
  for (let i = 0; i < text.length && tried < MAX_CANDIDATES; i++) {
    const ch = text[i];
    if (ch !== "{" && ch !== "[") continue;
    if (want !== "any" && (ch === "{") !== (want === "object")) continue;
    tried++;
    const end = matchingBracket(text, i);
    if (end < 0) {
      unclosed = true;
      continue;
    }
    const json = text.slice(i, end + 1);
    const p = parse(json);
    if (p.ok && fits(p.value, want)) return { value: p.value, json };
    if (!p.ok) error ??= p.error;
  }
  return { unclosed, error };
}

function found(json: string, value: unknown): ExtractedJson {
  return { json, ok: true, value };
}

/**
 * The JSON value of an answer, in this order: the whole answer; the first fenced block that parses (fences
 * labelled json first); the first balanced object or array in the text. `want` prefers values of that shape
 * (an object schema skips a `[1]` in the prose before the object); a value of another shape is still taken
 * when nothing of the wanted shape is there, and the schema check reports the mismatch.
 */
export function extractJson(text: string, want: JsonKind = "any"): ExtractedJson {
  const answer = text.trim();
  if (answer === "") return { json: "", ok: false, problem: "the answer was empty; it must be a JSON value" };
  const whole = parse(answer);
  if (whole.ok) return found(answer, whole.value);
  const fences = fenceBodies(answer);
  const ordered = [...fences.filter((f) => f.info.startsWith("json")), ...fences.filter((f) => !f.info.startsWith("json"))];
  for (const shape of want === "any" ? (["any"] as const) : ([want, "any"] as const)) {
    for (const f of ordered) {
      const body = f.body.trim();
      const p = parse(body);
      if (p.ok && fits(p.value, shape)) return found(body, p.value);
    }
    const b = bracketed(answer, shape);
    if ("json" in b) return found(b.json, b.value);
  }
  const b = bracketed(answer, "any") as { unclosed: boolean; error?: string };
  const problem = b.error ? `the JSON does not parse (${b.error})` : b.unclosed ? "the JSON value was cut off before its end" : "the answer contains no JSON value";
  return { json: answer, ok: false, problem };
}
