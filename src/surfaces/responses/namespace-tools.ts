// Namespace tools of the responses protocol (issue 16 item 4; docs/choices.md "Namespace tools"). Codex groups
// tools as {type:"namespace", name, description, tools:[{type:"function", …}]} and routes a call by the pair
// (namespace, name) it reads from the function_call item's `namespace` and `name` fields. Core has one flat
// list of tool names, so each inner function is offered under Codex's own canonical flat name
// (`namespace__name`), and a call to that flat name goes back out split into the pair. Pure.
import { isObject } from "../../prompt/content";

export interface ToolRef {
  name: string;
  namespace?: string;
  /** A custom (freeform) tool: its calls go out as custom_tool_call items with a raw `input` string. */
  custom?: boolean;
}

/** Codex's canonical flat name (protocol tool_name.rs): `__` between, stray underscores at the join trimmed. */
export function qualifiedToolName(namespace: string, name: string): string {
  return `${namespace.replace(/_+$/, "")}__${name.replace(/^_+/, "")}`;
}

/** Flat name → how the client knows the tool: every namespaced function and every custom tool (issue 16). */
export type NamespaceNames = Map<string, ToolRef>;

/** The one parameter a custom (freeform) tool is offered to core with: core has only JSON-argument tools. */
export const CUSTOM_INPUT_PARAM = "input";

function customParameters(t: Record<string, unknown>): Record<string, unknown> {
  const format = isObject(t.format) ? t.format : undefined;
  const grammar = format?.type === "grammar" && typeof format.definition === "string" ? ` It must match this ${typeof format.syntax === "string" ? format.syntax : ""} grammar:\n${format.definition}` : "";
  return {
    type: "object",
    properties: { [CUSTOM_INPUT_PARAM]: { type: "string", description: `The tool's raw input as plain text (not JSON, no code fence).${grammar}` } },
    required: [CUSTOM_INPUT_PARAM],
  };
}

/**
 * Every tool the request declares: `tools`, plus the tools of `additional_tools` input items, which Codex sends
 * instead of `tools` with its default model (issue 16: its code-mode `exec` tool lives there).
 */
export function declaredToolList(body: Record<string, unknown>): unknown[] {
  const list = Array.isArray(body.tools) ? [...body.tools] : [];
  const input = Array.isArray(body.input) ? body.input : [];
  for (const item of input) if (isObject(item) && item.type === "additional_tools" && Array.isArray(item.tools)) list.push(...item.tools);
  return list;
}

/** A custom tool call's raw input from the JSON arguments core wrote for it. */
export function customInputOf(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (isObject(parsed) && typeof parsed[CUSTOM_INPUT_PARAM] === "string") return parsed[CUSTOM_INPUT_PARAM];
  } catch {
    // Not JSON: core wrote the input itself.
  }
  return args;
}

function plainFunctionNames(raw: unknown[]): Set<string> {
  const names = new Set<string>();
  for (const t of raw) if (isObject(t) && (t.type === undefined || t.type === "function") && typeof t.name === "string") names.add(t.name);
  return names;
}

/**
 * The inner function tools as flat function tools (description followed by the namespace's own description, so
 * core learns what the group is for), and the name map. Custom (freeform) tools, at the top level or inside a
 * namespace, are offered as a function with one string parameter, `input`. A flat name that a top-level
 * function already uses stays with that function.
 */
export function flattenNamespaceTools(raw: unknown): { tools: Record<string, unknown>[]; names: NamespaceNames } {
  const tools: Record<string, unknown>[] = [];
  const names: NamespaceNames = new Map();
  if (!Array.isArray(raw)) return { tools, names };
  const plain = plainFunctionNames(raw);
  for (const t of raw) {
    // A top-level custom tool keeps its own name; only its call shape differs.
    if (!isObject(t) || t.type !== "custom" || typeof t.name !== "string" || !t.name || plain.has(t.name) || names.has(t.name)) continue;
    names.set(t.name, { name: t.name, custom: true });
    tools.push({ type: "function", name: t.name, ...(typeof t.description === "string" && t.description ? { description: t.description } : {}), parameters: customParameters(t) });
  }
  for (const ns of raw) {
    if (!isObject(ns) || ns.type !== "namespace" || typeof ns.name !== "string" || !ns.name || !Array.isArray(ns.tools)) continue;
    const groupNote = typeof ns.description === "string" && ns.description.trim() ? `(Tool group ${ns.name}: ${ns.description.trim()})` : "";
    for (const t of ns.tools) {
      const custom = isObject(t) && t.type === "custom";
      if (!isObject(t) || (t.type !== undefined && t.type !== "function" && !custom) || typeof t.name !== "string" || !t.name) continue;
      const flat = qualifiedToolName(ns.name, t.name);
      if (plain.has(flat) || names.has(flat)) continue;
      names.set(flat, { namespace: ns.name, name: t.name, ...(custom ? { custom: true } : {}) });
      const own = typeof t.description === "string" ? t.description.trim() : "";
      const description = [own, groupNote].filter((x) => x !== "").join("\n");
      const parameters = custom ? customParameters(t) : t.parameters;
      tools.push({ type: "function", name: flat, ...(description ? { description } : {}), ...(parameters !== undefined ? { parameters } : {}) });
    }
  }
  return { tools, names };
}

/** How a call to `flat` goes back to the client: split when it is a namespaced function, else as is. */
export function toolRefOf(names: NamespaceNames, flat: string): ToolRef {
  return names.get(flat) ?? { name: flat };
}

/** The flat name of a history call or a tool_choice entry that names its namespace separately. */
export function flatNameOf(name: string, namespace: unknown): string {
  return typeof namespace === "string" && namespace ? qualifiedToolName(namespace, name) : name;
}

/**
 * A tool_choice naming a namespaced function, rewritten to its flat name: `{type:"function", name, namespace}`,
 * or the bare inner name when no plain tool has it and exactly one namespace does. An allowed_tools entry
 * `{type:"namespace", name}` allows every function of that namespace. Anything else is left for the shared
 * tool_choice reader to accept or refuse.
 */
export function flattenToolChoice(choice: unknown, raw: unknown, names: NamespaceNames): unknown {
  if (names.size === 0 || !isObject(choice)) return choice;
  const plain = plainFunctionNames(Array.isArray(raw) ? raw : []);
  const resolve = (name: string, namespace: unknown): string => {
    if (typeof namespace === "string" && namespace) return qualifiedToolName(namespace, name);
    if (plain.has(name) || names.has(name)) return name;
    const inner = [...names].filter(([, ref]) => ref.name === name);
    return inner.length === 1 ? inner[0]![0] : name;
  };
  if (choice.type === "function" && typeof choice.name === "string") return { ...choice, name: resolve(choice.name, choice.namespace) };
  if (choice.type === "allowed_tools" && Array.isArray(choice.tools)) {
    const tools = choice.tools.flatMap((t: unknown) => {
      if (!isObject(t) || typeof t.name !== "string") return [t];
      if (t.type === "namespace") {
        const members = [...names].filter(([, ref]) => ref.namespace === t.name).map(([flat]) => flat);
        return members.length ? members : [t];
      }
      return [{ ...t, name: resolve(t.name, t.namespace) }];
    });
    return { ...choice, tools };
  }
  return choice;
}
