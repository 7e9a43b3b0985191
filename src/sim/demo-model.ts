// The simulator's demo model (core-upstream §12.8 step 3): deterministic answers derived from the prompt,
// short reasoning when thinking is on, and an svcml tool call when the prompt declares tools and the last
// user turn asks for one, so that a client can run a whole tool loop against the simulator.

const M = {
  user: "<｜User｜>",
  assistant: "<｜Assistant｜>",
  tool: "<｜Tool｜>",
  endTool: "<｜end▁of▁toolresults｜>",
  eos: "<｜end▁of▁sentence｜>",
  system: "<｜System｜>",
  endSystem: "<｜end▁of▁instructions｜>",
};

export interface DemoAnswer {
  thinking: string;
  answer: string;
}

interface DeclaredTool {
  name: string;
  schema: any;
}

function declaredTools(prompt: string): DeclaredTool[] {
  const out: DeclaredTool[] = [];
  const re = /^Tool: (.+)$/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(prompt))) {
    const name = m[1]!.trim();
    const rest = prompt.slice(m.index, m.index + 20_000);
    const p = /^Parameters: (.*)$/m.exec(rest);
    let schema: any = {};
    try {
      schema = p ? JSON.parse(p[1]!) : {};
    } catch {}
    if (!out.some((t) => t.name === name)) out.push({ name, schema });
  }
  return out;
}

/** The final turn before the trailing assistant marker: its role and text. */
function lastTurn(prompt: string): { role: "user" | "tool" | "other"; text: string } {
  const body = prompt.endsWith(M.assistant) ? prompt.slice(0, -M.assistant.length) : prompt;
  if (body.endsWith(M.endTool)) {
    const start = body.lastIndexOf(M.tool);
    return { role: "tool", text: body.slice(start + M.tool.length, body.length - M.endTool.length) };
  }
  const u = body.lastIndexOf(M.user);
  if (u < 0) return { role: "other", text: "" };
  let text = body.slice(u + M.user.length);
  for (const marker of Object.values(M)) {
    const k = text.indexOf(marker);
    if (k >= 0) text = text.slice(0, k);
  }
  return { role: "user", text };
}

function sampleValue(name: string, schema: any): unknown {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0];
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [sampleValue("item", schema?.items ?? {})];
  if (type === "object") return {};
  if (/path|file/i.test(name)) return "README.md";
  if (/city|location|place/i.test(name)) return "Paris";
  return "example";
}

const cdata = (s: string) => `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

export function svcmlCall(name: string, args: Record<string, unknown>): string {
  const params = Object.entries(args).map(
    ([k, v]) => `    <|svcml|parameter name="${k}">${typeof v === "string" ? cdata(v) : JSON.stringify(v)}</|svcml|parameter>`,
  );
  return ["<|svcml|tool_calls>", `  <|svcml|invoke name="${name}">`, ...params, "  </|svcml|invoke>", "</|svcml|tool_calls>"].join("\n");
}

export function demoAnswer(prompt: string, thinking: boolean): DemoAnswer {
  const tools = declaredTools(prompt);
  const last = lastTurn(prompt);
  const quote = (s: string) => {
    const t = s.replace(/\s+/g, " ").trim();
    return t.length > 60 ? `${t.slice(0, 60)}…` : t;
  };
  if (last.role === "tool") {
    return {
      thinking: thinking ? "The tool returned a result; I will summarise it." : "",
      answer: `The tool returned: "${quote(last.text)}". (answer from the core simulator)`,
    };
  }
  if (tools.length && last.role === "user") {
    const lower = last.text.toLowerCase();
    const named = tools.find((t) => lower.includes(t.name.toLowerCase()));
    if (named || /\b(use|call)\b.*\btool\b|\btool\b/.test(lower)) {
      const tool = named ?? tools[0]!;
      const props = tool.schema?.properties ?? {};
      const required: string[] = Array.isArray(tool.schema?.required) ? tool.schema.required : Object.keys(props).slice(0, 1);
      const args: Record<string, unknown> = {};
      for (const k of required) args[k] = sampleValue(k, props[k]);
      return { thinking: thinking ? `The user wants me to call ${tool.name}.` : "", answer: svcmlCall(tool.name, args) };
    }
  }
  return {
    thinking: thinking ? `The user wrote "${quote(last.text)}". A short, friendly answer fits.` : "",
    answer: `You said: "${quote(last.text)}". This answer comes from the core simulator.`,
  };
}
