// The simulator's demo model (core-upstream §12.8 step 3): deterministic answers derived from the prompt,
// short reasoning when thinking is on, and an svcml tool call when the prompt declares tools and the last
// user turn asks for one, so that a client can run a whole tool loop against the simulator.
// The role markers are spelled here on purpose: the simulator reads prompts the way core would, without
// importing the gateway's prompt builder (a shared module could hide a bug on both sides).

const M = {
  user: "<｜User｜>",
  assistant: "<｜Assistant｜>",
  tool: "<｜Tool｜>",
  endTool: "<｜end▁of▁toolresults｜>",
  eos: "<｜end▁of▁sentence｜>",
  system: "<｜System｜>",
  endSystem: "<｜end▁of▁instructions｜>",
  bos: "<｜begin▁of▁sentence｜>",
};

export interface DemoAnswer {
  thinking: string;
  answer: string;
  /** The answer is an svcml tool call (never decorate it with reference markers). */
  toolCall: boolean;
}

interface DeclaredTool {
  name: string;
  schema: any;
}

/** Tools listed in the gateway's tool instruction block: `Tool: NAME` … `Parameters: {json schema}`. */
export function declaredTools(prompt: string): DeclaredTool[] {
  const out: DeclaredTool[] = [];
  const re = /^Tool: (.+)$/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(prompt))) {
    const name = m[1]!.trim();
    // The parameters line belongs to this tool only if it comes before the next tool entry.
    const rest = prompt.slice(m.index + m[0].length, m.index + 50_000);
    const next = rest.search(/^Tool: /m);
    const own = next >= 0 ? rest.slice(0, next) : rest;
    const p = /^Parameters:[ \t]*/m.exec(own);
    let schema: any = {};
    try {
      schema = p ? JSON.parse(leadingJsonObject(own.slice(p.index + p[0].length))) : {};
    } catch {}
    if (name && !out.some((t) => t.name === name)) out.push({ name, schema });
  }
  return out;
}

/** The balanced `{…}` at the start of `s` (strings respected), so text glued after the schema does not matter. */
function leadingJsonObject(s: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return s.slice(0, i + 1);
  }
  return s;
}

/** The final turn before the trailing assistant marker: its role and text. */
export function lastTurn(prompt: string): { role: "user" | "tool" | "other"; text: string } {
  const trimmed = prompt.trimEnd();
  const body = (trimmed.endsWith(M.assistant) ? trimmed.slice(0, -M.assistant.length) : trimmed).trimEnd();
  if (body.endsWith(M.endTool)) {
    const start = body.lastIndexOf(M.tool);
    return { role: "tool", text: body.slice(start + M.tool.length, body.length - M.endTool.length) };
  }
  const u = body.lastIndexOf(M.user);
  // A bare prompt without markers is one user request.
  if (u < 0) return { role: Object.values(M).some((x) => body.includes(x)) ? "other" : "user", text: body };
  let text = body.slice(u + M.user.length);
  for (const marker of Object.values(M)) {
    const k = text.indexOf(marker);
    if (k >= 0) text = text.slice(0, k);
  }
  return { role: "user", text };
}

/**
 * A command the request spells out in backquotes ("run `echo hi`"): the value of a command parameter, so
 * that an agent client's tool loop runs that command and not a guess (tests/clients).
 */
function quotedCommand(request: string): string | undefined {
  return /`([^`\n]+)`/.exec(request)?.[1];
}

function sampleValue(name: string, schema: any, request = ""): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (schema && "const" in schema) return schema.const;
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
  if (schema?.default !== undefined) return schema.default;
  if (type === "integer") return 1;
  if (type === "number") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [sampleValue(name, schema?.items ?? { type: "string" }, request)];
  if (type === "object" || schema?.properties) return sampleArgs(schema, request);
  const n = name.toLowerCase();
  // `input`: a custom (freeform) tool's one parameter as the gateway offers it, e.g. Codex's code-mode exec.
  if (/^(command|cmd|script|input)$/.test(n) && quotedCommand(request)) return quotedCommand(request);
  if (/path|file|dir/.test(n)) return "README.md";
  if (/city|location|place/.test(n)) return "Paris";
  if (/url|link/.test(n)) return "https://example.com/";
  if (/^(command|cmd|script)$/.test(n)) return "ls";
  if (/query|search|pattern|q$/.test(n)) return "simulator";
  if (/email/.test(n)) return "user@example.com";
  if (/date/.test(n)) return "2026-01-01";
  return "example";
}

/** Values for the required properties (or the first property when none is required). */
function sampleArgs(schema: any, request = ""): Record<string, unknown> {
  const props: Record<string, any> = schema?.properties ?? {};
  const required: string[] = Array.isArray(schema?.required) ? schema.required : Object.keys(props).slice(0, 1);
  const out: Record<string, unknown> = {};
  for (const k of required) out[k] = sampleValue(k, props[k] ?? {}, request);
  return out;
}

const cdata = (s: string) => `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** Text that a reader would type as a JSON literal rather than keep as a string (svcml-and-prompts §1.7). */
function readsAsLiteral(s: string): boolean {
  const t = s.trim();
  if (!/^[{["\-0-9tfn]/.test(t)) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * One parameter body: a string in CDATA (quoted as a JSON string when it would otherwise read back as a
 * number, boolean or object), any other value as its compact JSON as plain text — in CDATA when that JSON
 * holds `<` or `&`, which plain text would expose to tag scanning and entity decoding.
 */
export function paramBody(v: unknown, stringParam = false): string {
  // Under a string schema a model writes the text as it is, as the gateway's tool instructions ask.
  if (typeof v === "string") return cdata(!stringParam && readsAsLiteral(v) ? JSON.stringify(v) : v);
  const json = JSON.stringify(v ?? null);
  return /[<&]/.test(json) ? cdata(json) : json;
}

/** A schema that says string (alone or with null), as the tool list in the prompt shows it. */
function isStringSchema(schema: any): boolean {
  const t = schema?.type;
  if (t === "string") return true;
  if (Array.isArray(t)) return t.includes("string") && t.every((x: unknown) => x === "string" || x === "null");
  const union = schema?.anyOf ?? schema?.oneOf;
  return Array.isArray(union) && union.some(isStringSchema) && union.every((b: any) => isStringSchema(b) || b?.type === "null");
}

const attr = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A well-formed svcml tool call block for one invoke. */
export function svcmlCall(name: string, args: Record<string, unknown>, schema?: any): string {
  const stringParam = (k: string) => isStringSchema(schema?.properties?.[k]);
  const params = Object.entries(args).map(([k, v]) => `    <|svcml|parameter name="${attr(k)}">${paramBody(v, stringParam(k))}</|svcml|parameter>`);
  return ["<|svcml|tool_calls>", `  <|svcml|invoke name="${attr(name)}">`, ...params, "  </|svcml|invoke>", "</|svcml|tool_calls>"].join("\n");
}

function quote(s: string): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}

// "use a tool", "use the X tool", "call it", "invoke a function": an explicit request, not a mere mention
// of the word "tool" (a question about tools must stay a text answer).
const ASKS_FOR_TOOL = /\b(use|invoke|run)\b[^.?!\n]*\b(tool|function)s?\b|\bcall\b/;

export function demoAnswer(prompt: string, thinking: boolean): DemoAnswer {
  const last = lastTurn(prompt);
  if (last.role === "tool") {
    return {
      thinking: thinking ? "The tool returned a result; I will summarise it." : "",
      answer: `The tool returned: "${quote(last.text)}". (answer from the core simulator)`,
      toolCall: false,
    };
  }
  const tools = last.role === "user" ? declaredTools(prompt) : [];
  if (tools.length) {
    const lower = last.text.toLowerCase();
    // "the NAME tool" names one tool exactly; a bare mention may be a word of the client's own reminders
    // (agent clients declare tools such as Task or Read and add text to the user turn).
    const exact = /\bthe ([\w.-]+) (?:tool|function)\b/i.exec(last.text)?.[1]?.toLowerCase();
    const named = tools.find((t) => t.name.toLowerCase() === exact) ?? tools.find((t) => lower.includes(t.name.toLowerCase()));
    if (named || ASKS_FOR_TOOL.test(lower)) {
      const tool = named ?? tools[0]!;
      return {
        thinking: thinking ? `The user wants me to call ${tool.name}.` : "",
        answer: svcmlCall(tool.name, sampleArgs(tool.schema, last.text), tool.schema),
        toolCall: true,
      };
    }
  }
  const json = requestedJson(prompt);
  if (json !== undefined) {
    return {
      thinking: thinking ? "The answer must be JSON in the requested shape." : "",
      answer: JSON.stringify(json),
      toolCall: false,
    };
  }
  return {
    thinking: thinking ? `The user wrote "${quote(last.text)}". A short, friendly answer fits.` : "",
    answer: `You said: "${quote(last.text)}". This answer comes from the core simulator.`,
    toolCall: false,
  };
}

/**
 * The gateway's JSON output block (src/prompt/json-instruction.ts) asks for one JSON value, with a schema or
 * without: the demo model answers one, with plausible values for the schema's required properties, as a
 * model that follows instructions would (clients such as Gemini CLI's model router depend on it).
 */
function requestedJson(prompt: string): unknown {
  const at = prompt.indexOf("# Output format");
  if (at < 0) return undefined;
  const block = prompt.slice(at, at + 200_000);
  const schemaLine = /matches this JSON Schema[^:\n]*:\n(.*)/.exec(block)?.[1];
  if (schemaLine) {
    try {
      return sampleValue("answer", JSON.parse(leadingJsonObject(schemaLine) || schemaLine));
    } catch {
      // Not a schema we can read: fall through to a plain object.
    }
  }
  return { answer: "This answer comes from the core simulator." };
}
