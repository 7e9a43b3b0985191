// Generate-content request → the surface part of a TurnRequest (svcml-and-prompts.md §3.6, D10.6).
import { GatewayError } from "../../http/errors";
import { asText, FileCollector } from "../../prompt/content";
import { generateToolChoice } from "../../prompt/tool-choice";
import type { ToolDef, Turn } from "../../pipeline/types";
import type { NormalizedRequest } from "../turn-service";

function responseText(r: unknown): string {
  if (r && typeof r === "object") {
    const o = r as Record<string, unknown>;
    for (const k of ["content", "output", "result"]) if (typeof o[k] === "string") return o[k] as string;
  }
  return asText(r);
}

export function normalizeGenerate(body: Record<string, unknown>): NormalizedRequest {
  const files = new FileCollector();
  const turns: Turn[] = [];
  const sys = (body.systemInstruction ?? body.system_instruction) as Record<string, any> | undefined;
  if (sys && Array.isArray(sys.parts)) {
    const text = sys.parts.map((p: any) => (typeof p?.text === "string" ? p.text : "")).join("");
    if (text) turns.push({ role: "system", text });
  } else if (typeof sys === "string") turns.push({ role: "system", text: sys });
  const contents = Array.isArray(body.contents) ? body.contents : [];
  contents.forEach((raw, i) => {
    if (!raw || typeof raw !== "object") throw new GatewayError(400, "invalid_request", `contents[${i}] must be an object.`, { param: `contents.${i}` });
    const c = raw as Record<string, any>;
    const role = c.role === "model" ? "assistant" : c.role === "function" || c.role === "tool" ? "tool" : "user";
    let text = "";
    let reasoning = "";
    let responses = 0;
    const calls: { name: string; arguments: unknown }[] = [];
    for (const p of Array.isArray(c.parts) ? c.parts : []) {
      if (!p || typeof p !== "object") continue;
      if (typeof p.text === "string") {
        if (role === "assistant" && p.thought === true) reasoning += p.text;
        else text += p.text;
      } else if (p.inlineData ?? p.inline_data) {
        const d = p.inlineData ?? p.inline_data;
        files.addBase64(d.data, d.mimeType ?? d.mime_type, "inline");
      } else if (p.functionCall && typeof p.functionCall.name === "string") calls.push({ name: p.functionCall.name, arguments: p.functionCall.args ?? {} });
      else if (p.functionResponse && ++responses) turns.push({ role: "tool", text: responseText(p.functionResponse.response), toolResultOf: { name: p.functionResponse.name } });
    }
    if (role === "tool") {
      if (text) turns.push({ role: "tool", text });
    } else if (text || reasoning || calls.length) turns.push({ role, text, ...(reasoning ? { reasoning } : {}), ...(calls.length ? { toolCalls: calls } : {}) });
    else if (role === "user" && i === contents.length - 1 && responses === 0) turns.push({ role: "user", text: "" });
  });
  const tools: ToolDef[] = [];
  for (const t of Array.isArray(body.tools) ? body.tools : []) {
    for (const f of (t as any)?.functionDeclarations ?? (t as any)?.function_declarations ?? []) {
      if (typeof f?.name === "string") tools.push({ name: f.name, description: f.description, parameters: f.parameters ?? f.parametersJsonSchema });
    }
  }
  const cfg = (body.toolConfig as any)?.functionCallingConfig;
  const gen = (body.generationConfig ?? {}) as Record<string, any>;
  const pass: Record<string, unknown> = {};
  if (gen.temperature !== undefined) pass.temperature = gen.temperature;
  if (gen.topP !== undefined) pass.top_p = gen.topP;
  if (gen.maxOutputTokens !== undefined) pass.max_tokens = gen.maxOutputTokens;
  if (gen.stopSequences !== undefined) pass.stop = gen.stopSequences;
  const tc = gen.thinkingConfig ?? {};
  return {
    turns,
    tools,
    toolChoice: generateToolChoice(cfg, tools),
    singleCall: false,
    files: files.files,
    fileIds: files.fileIds,
    passThrough: pass,
    highEffortHint: (typeof tc.thinkingBudget === "number" && tc.thinkingBudget >= 16000) || String(tc.thinkingLevel ?? "").toLowerCase() === "high",
  };
}
