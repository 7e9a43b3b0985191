// Schema string coercion (svcml-and-prompts.md §1.11): where the tool's schema says string, a value that is
// neither a string nor null becomes its compact JSON text. Nothing else changes.

export type SchemaLookup = (toolName: string) => unknown;

export function schemaLookup(tools: { name: string; parameters?: unknown }[]): SchemaLookup {
  const map = new Map<string, unknown>();
  for (const t of tools) map.set(t.name.toLowerCase(), t.parameters);
  return (name) => map.get(name.toLowerCase());
}

function stringLike(schema: any): boolean {
  if (!schema || typeof schema !== "object") return false;
  const t = schema.type;
  if (t === "string") return true;
  if (Array.isArray(t) && t.length > 0 && t.every((x: unknown) => x === "string" || x === "null") && t.includes("string")) return true;
  if (typeof schema.const === "string") return true;
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((x: unknown) => typeof x === "string")) return true;
  return false;
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
  if (!lookup) return value;
  const raw = lookup(tool) as any;
  const schema = raw?.function?.parameters ?? raw;
  if (!schema || typeof schema !== "object") return value;
  return coerce(value, schema.properties?.[arg] ?? (typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined));
}
