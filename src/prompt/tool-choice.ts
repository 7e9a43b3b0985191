// tool_choice per surface (svcml-and-prompts.md §3.9) → the internal ToolChoice; invalid settings are 400s.
import { GatewayError } from "../http/errors";
import type { ToolChoice, ToolDef } from "../pipeline/types";

const bad = (msg: string, param = "tool_choice") => new GatewayError(400, "invalid_request", msg, { param });

function check(choice: ToolChoice, tools: ToolDef[]): ToolChoice {
  const names = new Set(tools.map((t) => t.name));
  if (choice.kind === "required" && tools.length === 0) throw bad("tool_choice 'required' needs at least one tool.");
  if (choice.kind === "forced") {
    if (tools.length === 0) throw bad("A forced tool_choice needs tools.");
    if (!names.has(choice.name)) throw bad(`tool_choice names the undeclared tool '${choice.name}'.`);
  }
  if (choice.kind === "allowed") {
    if (choice.names.length === 0) throw bad("The allowed tool set is empty.");
    for (const n of choice.names) if (!names.has(n)) throw bad(`tool_choice allows the undeclared tool '${n}'.`);
  }
  return choice;
}

function allowedNames(list: unknown): string[] {
  return Array.isArray(list) ? list.map((t: any) => t?.function?.name ?? t?.name).filter((n): n is string => typeof n === "string") : [];
}

/** Chat and responses: "auto" | "none" | "required" | {type:"function", …} | {type:"allowed_tools", …}. */
export function openaiToolChoice(raw: unknown, tools: ToolDef[], surface: "chat" | "responses"): ToolChoice {
  if (raw === undefined || raw === null || raw === "auto") return { kind: "auto" };
  if (raw === "none") return { kind: "none" };
  if (raw === "required") return check({ kind: "required" }, tools);
  if (raw && typeof raw === "object") {
    const o = raw as Record<string, any>;
    if (o.type === "function") {
      const name = surface === "chat" ? (o.function?.name ?? o.name) : (o.name ?? o.function?.name);
      if (typeof name !== "string") throw bad("A forced tool_choice needs a function name.");
      return check({ kind: "forced", name }, tools);
    }
    if (o.type === "allowed_tools") {
      const spec = surface === "chat" ? (o.allowed_tools ?? o) : o;
      return check({ kind: "allowed", names: allowedNames(spec.tools), required: spec.mode === "required" }, tools);
    }
  }
  throw bad("tool_choice has an unknown value.");
}

/** Messages: {type: auto | any | tool | none}. */
export function messagesToolChoice(raw: unknown, tools: ToolDef[]): { choice: ToolChoice; single: boolean } {
  if (raw === undefined || raw === null) return { choice: { kind: "auto" }, single: false };
  const o = raw as Record<string, any>;
  const single = o?.disable_parallel_tool_use === true;
  switch (o?.type) {
    case "auto":
      return { choice: { kind: "auto" }, single };
    case "none":
      return { choice: { kind: "none" }, single };
    case "any":
      return { choice: check({ kind: "required" }, tools), single };
    case "tool":
      if (typeof o.name !== "string") throw bad("tool_choice type 'tool' needs a name.");
      return { choice: check({ kind: "forced", name: o.name }, tools), single };
  }
  throw bad("tool_choice has an unknown value.");
}

/** Generate-content: toolConfig.functionCallingConfig {mode, allowedFunctionNames}. */
export function generateToolChoice(cfg: unknown, tools: ToolDef[]): ToolChoice {
  const c = (cfg ?? {}) as Record<string, any>;
  const mode = typeof c.mode === "string" ? c.mode.toUpperCase() : "AUTO";
  const allowed: string[] = Array.isArray(c.allowedFunctionNames) ? c.allowedFunctionNames.filter((n: unknown) => typeof n === "string") : [];
  if (mode === "AUTO" || mode === "VALIDATED" || mode === "MODE_UNSPECIFIED") return { kind: "auto" };
  if (mode === "NONE") return { kind: "none" };
  if (mode === "ANY") {
    if (allowed.length === 1) return check({ kind: "forced", name: allowed[0]! }, tools);
    if (allowed.length > 1) return check({ kind: "allowed", names: allowed, required: true }, tools);
    return check({ kind: "required" }, tools);
  }
  throw bad("functionCallingConfig.mode has an unknown value.", "toolConfig.functionCallingConfig.mode");
}
