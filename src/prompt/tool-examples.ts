// Example calls for the tool block (svcml-and-prompts.md §3.8 part 8), built only from the declared tools and
// their schemas: an example naming a tool the client never declared would teach core to call it.
import type { ToolDef } from "../pipeline/types";
import { isObject } from "./content";

export interface ExampleCall {
  name: string;
  arguments: Record<string, unknown>;
}

const SHELL_NAME = /bash|shell|exec|command|terminal/i;
const PATH_NAME = /path|file|dir|folder/i;
const MAX_EXAMPLE_PROPS = 3;

function properties(t: ToolDef): Record<string, unknown> | null {
  const p = isObject(t.parameters) ? t.parameters.properties : undefined;
  return isObject(p) && Object.keys(p).length > 0 ? p : null;
}

function typeOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  const t = Array.isArray(schema.type) ? schema.type.find((x: unknown) => x !== "null") : schema.type;
  if (typeof t === "string") return t;
  if (isObject(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

/** A plausible value from the property name and type (§3.8): never random, so the prompt is stable. */
export function exampleValue(name: string, schema: unknown, depth = 0): unknown {
  if (isObject(schema) && Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (typeOf(schema)) {
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array": {
      const items = isObject(schema) ? schema.items : undefined;
      return depth > 2 ? [] : [exampleValue(name, Array.isArray(items) ? items[0] : (items ?? { type: "string" }), depth + 1)];
    }
    case "object": {
      const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
      const out: Record<string, unknown> = {};
      if (depth > 2) return out;
      for (const [k, s] of Object.entries(props).slice(0, 2)) out[k] = exampleValue(k, s, depth + 1);
      return out;
    }
  }
  const n = name.toLowerCase();
  if (/^(command|cmd|script)$/.test(n)) return "ls -la";
  if (/^(query|pattern)$/.test(n)) return "TODO";
  if (PATH_NAME.test(n)) return "src/index.ts";
  return "example";
}

function argsFor(t: ToolDef, mustInclude?: string): Record<string, unknown> {
  const props = properties(t) ?? {};
  const req = isObject(t.parameters) && Array.isArray(t.parameters.required) ? t.parameters.required.filter((k: unknown) => typeof k === "string" && k in props) : [];
  const keys: string[] = (req.length ? req : Object.keys(props)).slice(0, MAX_EXAMPLE_PROPS);
  if (mustInclude && !keys.includes(mustInclude)) keys.push(mustInclude);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = exampleValue(k, props[k]);
  return out;
}

function structuredProperty(t: ToolDef): string | undefined {
  const props = properties(t);
  if (!props) return undefined;
  return Object.keys(props).find((k) => {
    const ty = typeOf(props[k]);
    return ty === "object" || ty === "array";
  });
}

export function exampleCalls(listed: ToolDef[]): { single?: ExampleCall; pair?: ExampleCall[]; nested?: ExampleCall; script?: ExampleCall } {
  const withSchema = listed.filter((t) => properties(t));
  const out: { single?: ExampleCall; pair?: ExampleCall[]; nested?: ExampleCall; script?: ExampleCall } = {};
  if (withSchema[0]) out.single = { name: withSchema[0].name, arguments: argsFor(withSchema[0]) };
  if (withSchema.length >= 2) out.pair = withSchema.slice(0, 2).map((t) => ({ name: t.name, arguments: argsFor(t) }));
  const nestedTool = withSchema.find((t) => structuredProperty(t) !== undefined);
  if (nestedTool) out.nested = { name: nestedTool.name, arguments: argsFor(nestedTool, structuredProperty(nestedTool)) };
  const shell = listed.find((t) => SHELL_NAME.test(t.name));
  const shellProps = shell ? properties(shell) : null;
  const stringProp = shellProps ? Object.keys(shellProps).find((k) => typeOf(shellProps[k]) === "string") : undefined;
  if (shell && stringProp) out.script = { name: shell.name, arguments: { [stringProp]: "cd project\nnpm install\nnpm test" } };
  return out;
}
