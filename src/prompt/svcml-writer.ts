// Assistant tool calls from the history written back as svcml (svcml-and-prompts.md §3.7), deterministically,
// in the recommended shell, so that reading the text back gives exactly the same arguments.

const TOOL_TAGS = new Set(["tool_calls", "tool-calls", "invoke", "parameter"]);
const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

const attr = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const cdata = (s: string) => `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** A string whose text would be read as something else (a JSON literal, XML or a list) goes as a JSON string. */
function readsBackAsString(s: string): boolean {
  const t = s.trim();
  if (t === "") return true;
  if (/^[{["\-0-9tfn]/.test(t)) {
    try {
      JSON.parse(t);
      return false;
    } catch {}
  }
  if (t.includes("<") && t.includes(">") && /^<[A-Za-z_]/.test(t)) return false;
  return true;
}

function stringValue(s: string): string {
  return readsBackAsString(s) ? cdata(s) : cdata(JSON.stringify(s));
}

function valueXml(v: unknown, indent: string): string {
  if (typeof v === "string") return stringValue(v);
  if (v === null || typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return "\n" + v.map((x) => `${indent}  <item>${valueXml(x, indent + "  ")}</item>`).join("\n") + `\n${indent}`;
  }
  if (typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    if (entries.some(([k]) => !XML_NAME.test(k) || TOOL_TAGS.has(k.toLowerCase()))) return cdata(JSON.stringify(v));
    return "\n" + entries.map(([k, x]) => `${indent}  <${k}>${valueXml(x, indent + "  ")}</${k}>`).join("\n") + `\n${indent}`;
  }
  return cdata(String(v));
}

export function writeToolCalls(calls: { name: string; arguments: unknown }[]): string {
  const invokes: string[] = [];
  for (const call of calls) {
    if (!call.name) continue;
    let args: unknown = call.arguments;
    let raw: string | null = null;
    if (typeof args === "string") {
      raw = args;
      try {
        args = args.trim() ? JSON.parse(args) : {};
      } catch {
        args = undefined;
      }
    }
    const head = `  <|svcml|invoke name="${attr(call.name)}">`;
    if (args && typeof args === "object" && !Array.isArray(args)) {
      const entries = Object.entries(args as Record<string, unknown>);
      if (entries.length === 0) {
        invokes.push(`${head}</|svcml|invoke>`);
        continue;
      }
      const params = entries.map(([k, v]) => `    <|svcml|parameter name="${attr(k)}">${valueXml(v, "    ")}</|svcml|parameter>`);
      invokes.push([head, ...params, "  </|svcml|invoke>"].join("\n"));
    } else {
      const text = raw ?? JSON.stringify(args ?? null);
      invokes.push([head, `    <|svcml|parameter name="arguments">${cdata(text)}</|svcml|parameter>`, "  </|svcml|invoke>"].join("\n"));
    }
  }
  if (invokes.length === 0) return "";
  return ["<|svcml|tool_calls>", ...invokes, "</|svcml|tool_calls>"].join("\n");
}
