// Schema string coercion (svcml-and-prompts.md §1.11): where the tool's schema says a parameter is a string, the
// value is the text the model wrote (paramReading); elsewhere, where the schema says string, a value that is
// neither a string nor null becomes its compact JSON text. Nothing else changes.

export type SchemaLookup = (toolName: string) => unknown;

/** The keys under which a tool declaration may carry its JSON schema (§1.11), at top level or under `function`. */
const SCHEMA_KEYS = ["parameters", "input_schema", "inputSchema", "parametersJsonSchema", "schema"] as const;

function schemaOf(tool: Record<string, unknown>): unknown {
  for (const holder of [tool, tool.function]) {
    if (!holder || typeof holder !== "object") continue;
    for (const key of SCHEMA_KEYS) {
      const v = (holder as Record<string, unknown>)[key];
      if (v && typeof v === "object") return v;
    }
  }
  return undefined;
}

function nameOf(tool: Record<string, unknown>): string | undefined {
  if (typeof tool.name === "string") return tool.name;
  const fn = tool.function as Record<string, unknown> | undefined;
  return fn && typeof fn.name === "string" ? fn.name : undefined;
}

/** A case-insensitive lookup from tool name to schema over the request's tool declarations (any surface's shape). */
export function schemaLookup(tools: readonly object[]): SchemaLookup {
  const map = new Map<string, unknown>();
  for (const t of tools) {
    const name = nameOf(t as Record<string, unknown>);
    // The first declaration of a name wins, as a client would expect from a list.
    if (name !== undefined && !map.has(name.toLowerCase())) map.set(name.toLowerCase(), schemaOf(t as Record<string, unknown>));
  }
  return (name) => map.get(name.toLowerCase());
}

function stringLike(schema: any): boolean {
  if (!schema || typeof schema !== "object") return false;
  const t = schema.type;
  if (t === "string") return true;
  if (Array.isArray(t) && t.length > 0 && t.every((x: unknown) => x === "string" || x === "null") && t.includes("string")) return true;
  if (typeof schema.const === "string") return true;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((x: unknown) => typeof x === "string")) return true;
  // An optional string as schema generators write it (`anyOf: [{type: string}, {type: null}]`).
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union) && union.some(stringLike) && union.every((b: any) => stringLike(b) || isNullSchema(b))) return true;
  return false;
}

function isNullSchema(schema: any): boolean {
  return !!schema && typeof schema === "object" && schema.type === "null";
}

/** Whether a string-like schema also admits null (§1.11's one exception to keeping the source text). */
function admitsNull(schema: any): boolean {
  if (!schema || typeof schema !== "object") return false;
  if (schema.nullable === true) return true;
  if (Array.isArray(schema.type) && schema.type.includes("null")) return true;
  const union = schema.anyOf ?? schema.oneOf;
  return Array.isArray(union) && union.some(isNullSchema);
}

/** The schema of one top-level argument of `tool` (§1.11's walk, one level), if the request declares one. */
function argSchema(lookup: SchemaLookup | undefined, tool: string, arg: string): unknown {
  if (!lookup) return undefined;
  const schema = lookup(tool) as any;
  if (!schema || typeof schema !== "object") return undefined;
  return schema.properties?.[arg] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
}

/**
 * How a top-level parameter element is read under §1.11's first rule: "source" when its schema is string-like (the
 * value is then the text the model wrote, exactly), "source or null" when that schema also admits null, else
 * "typed" (§1.7's typing, then coercion).
 */
export type ParamReading = "typed" | "source" | "source or null";

export function paramReading(lookup: SchemaLookup | undefined, tool: string, arg: string): ParamReading {
  const schema = argSchema(lookup, tool, arg);
  if (!stringLike(schema)) return "typed";
  return admitsNull(schema) ? "source or null" : "source";
}

function coerce(value: unknown, schema: any): unknown {
  if (!schema || typeof schema !== "object") return value;
  if (stringLike(schema)) return value === null || typeof value === "string" ? value : JSON.stringify(value);
  const isObj = schema.type === "object" || schema.properties || schema.additionalProperties;
  if (isObj && value && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const sub = schema.properties?.[k] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined);
      out[k] = coerce(v, sub);
    }
    return out;
  }
  const isArr = schema.type === "array" || schema.items;
  if (isArr && Array.isArray(value)) return value.map((v, i) => coerce(v, Array.isArray(schema.items) ? schema.items[i] : schema.items));
  return value;
}

/** Coerces one top-level argument of `tool` by the request's schemas. */
export function coerceArgs(lookup: SchemaLookup | undefined, tool: string, arg: string, value: unknown): unknown {
  const schema = argSchema(lookup, tool, arg);
  return schema === undefined ? value : coerce(value, schema);
}
