// tool_choice per surface (svcml-and-prompts.md §3.9) → the internal ToolChoice plus `single` (at most one
// call). The setting only shapes the prompt (and the responses enforcement); invalid settings are 400s so a
// client learns of a typo instead of silently getting `auto`.
import { invalidRequest } from "../util/invalid-request";
import type { ToolChoice, ToolDef } from "../pipeline/types";
import { isObject } from "./content";

export interface ToolChoiceSetting {
  toolChoice: ToolChoice;
  singleCall: boolean;
}

const bad = (msg: string, param = "tool_choice") => invalidRequest(msg, param);

/** The errors of §3.9 that depend on the declared tools. */
function check(choice: ToolChoice, tools: ToolDef[], param: string): ToolChoice {
  const declared = new Set(tools.map((t) => t.name));
  switch (choice.kind) {
    case "required":
      if (tools.length === 0) throw bad("tool_choice requires a tool call, but no tools are declared.", param);
      break;
    case "forced":
      if (tools.length === 0) throw bad(`tool_choice forces the tool '${choice.name}', but no tools are declared.`, param);
      if (!declared.has(choice.name)) throw bad(`tool_choice names the tool '${choice.name}', which is not declared in tools.`, param);
      break;
    case "allowed":
      if (tools.length === 0) throw bad("tool_choice allows a set of tools, but no tools are declared.", param);
      if (choice.names.length === 0) throw bad("tool_choice allows an empty set of tools.", param);
      for (const n of choice.names) if (!declared.has(n)) throw bad(`tool_choice allows the tool '${n}', which is not declared in tools.`, param);
      break;
  }
  return choice;
}

function allowedMode(mode: unknown, param: string): boolean {
  if (mode === undefined || mode === null || mode === "auto") return false;
  if (mode === "required") return true;
  throw bad("The mode of an allowed_tools tool_choice must be 'auto' or 'required'.", param);
}

function allowedNames(list: unknown, param: string): string[] {
  if (!Array.isArray(list)) throw bad("allowed_tools needs a list of tools.", param);
  return list.map((t, i) => {
    const name = typeof t === "string" ? t : isObject(t) ? (t.name ?? (isObject(t.function) ? t.function.name : undefined)) : undefined;
    if (typeof name !== "string" || !name) throw bad("Every allowed tool needs a name.", `${param}.${i}`);
    return name;
  });
}

function openaiStrings(raw: unknown, tools: ToolDef[]): ToolChoice | undefined {
  if (raw === undefined || raw === null || raw === "auto") return { kind: "auto" };
  if (raw === "none") return { kind: "none" };
  if (raw === "required") return check({ kind: "required" }, tools, "tool_choice");
  return undefined;
}

const singleOf = (body: Record<string, unknown>) => body.parallel_tool_calls === false;

/** Chat: "auto" | "none" | "required" | {type:"function", function:{name}} | {type:"allowed_tools", allowed_tools:{mode, tools}}. */
export function chatToolChoice(body: Record<string, unknown>, tools: ToolDef[]): ToolChoiceSetting {
  const raw = body.tool_choice;
  const simple = openaiStrings(raw, tools);
  if (simple) return { toolChoice: simple, singleCall: singleOf(body) };
  if (isObject(raw) && raw.type === "function") {
    const name = isObject(raw.function) ? raw.function.name : raw.name;
    if (typeof name !== "string" || !name) throw bad("A function tool_choice needs function.name.", "tool_choice.function.name");
    return { toolChoice: check({ kind: "forced", name }, tools, "tool_choice.function.name"), singleCall: singleOf(body) };
  }
  if (isObject(raw) && raw.type === "allowed_tools") {
    const spec = isObject(raw.allowed_tools) ? raw.allowed_tools : raw;
    const p = "tool_choice.allowed_tools";
    const choice: ToolChoice = { kind: "allowed", names: allowedNames(spec.tools, `${p}.tools`), required: allowedMode(spec.mode, `${p}.mode`) };
    return { toolChoice: check(choice, tools, p), singleCall: singleOf(body) };
  }
  throw bad("tool_choice has an unknown value.");
}

/** Responses: "auto" | "none" | "required" | {type:"function", name} | {type:"allowed_tools", mode, tools}. */
export function responsesToolChoice(body: Record<string, unknown>, tools: ToolDef[]): ToolChoiceSetting {
  const raw = body.tool_choice;
  const simple = openaiStrings(raw, tools);
  if (simple) return { toolChoice: simple, singleCall: singleOf(body) };
  if (isObject(raw) && raw.type === "function") {
    const name = raw.name ?? (isObject(raw.function) ? raw.function.name : undefined);
    if (typeof name !== "string" || !name) throw bad("A function tool_choice needs a name.", "tool_choice.name");
    return { toolChoice: check({ kind: "forced", name }, tools, "tool_choice.name"), singleCall: singleOf(body) };
  }
  if (isObject(raw) && raw.type === "allowed_tools") {
    const choice: ToolChoice = { kind: "allowed", names: allowedNames(raw.tools, "tool_choice.tools"), required: allowedMode(raw.mode, "tool_choice.mode") };
    return { toolChoice: check(choice, tools, "tool_choice"), singleCall: singleOf(body) };
  }
  throw bad("tool_choice has an unknown value.");
}

/** Messages: {type: auto | any | tool | none, disable_parallel_tool_use?}. */
export function messagesToolChoice(body: Record<string, unknown>, tools: ToolDef[]): ToolChoiceSetting {
  const raw = body.tool_choice;
  if (raw === undefined || raw === null) return { toolChoice: { kind: "auto" }, singleCall: false };
  if (!isObject(raw)) throw bad("tool_choice must be an object with a type.");
  const singleCall = raw.disable_parallel_tool_use === true;
  switch (raw.type) {
    case "auto":
      return { toolChoice: { kind: "auto" }, singleCall };
    case "none":
      return { toolChoice: { kind: "none" }, singleCall };
    case "any":
      return { toolChoice: check({ kind: "required" }, tools, "tool_choice"), singleCall };
    case "tool":
      if (typeof raw.name !== "string" || !raw.name) throw bad("A tool_choice of type 'tool' needs a name.", "tool_choice.name");
      return { toolChoice: check({ kind: "forced", name: raw.name }, tools, "tool_choice.name"), singleCall };
  }
  throw bad("tool_choice.type has an unknown value.", "tool_choice.type");
}

/** Generate-content: toolConfig.functionCallingConfig {mode, allowedFunctionNames}; no single-call setting. */
export function generateToolChoice(body: Record<string, unknown>, tools: ToolDef[]): ToolChoiceSetting {
  const toolConfig = body.toolConfig ?? body.tool_config;
  const cfg = isObject(toolConfig) ? (toolConfig.functionCallingConfig ?? toolConfig.function_calling_config) : undefined;
  const p = "toolConfig.functionCallingConfig";
  if (cfg === undefined || cfg === null) return { toolChoice: { kind: "auto" }, singleCall: false };
  if (!isObject(cfg)) throw bad("functionCallingConfig must be an object.", p);
  const modeRaw = cfg.mode ?? "AUTO";
  if (typeof modeRaw !== "string") throw bad("functionCallingConfig.mode must be a string.", `${p}.mode`);
  const mode = modeRaw.toUpperCase();
  const namesRaw = cfg.allowedFunctionNames ?? cfg.allowed_function_names;
  const names = namesRaw === undefined ? [] : allowedNames(namesRaw, `${p}.allowedFunctionNames`);
  switch (mode) {
    case "AUTO":
    case "VALIDATED":
    case "MODE_UNSPECIFIED":
      return { toolChoice: { kind: "auto" }, singleCall: false };
    case "NONE":
      return { toolChoice: { kind: "none" }, singleCall: false };
    case "ANY": {
      const pn = `${p}.allowedFunctionNames`;
      if (names.length === 1) return { toolChoice: check({ kind: "forced", name: names[0]! }, tools, pn), singleCall: false };
      if (names.length > 1) return { toolChoice: check({ kind: "allowed", names, required: true }, tools, pn), singleCall: false };
      return { toolChoice: check({ kind: "required" }, tools, `${p}.mode`), singleCall: false };
    }
  }
  throw bad("functionCallingConfig.mode has an unknown value.", `${p}.mode`);
}

