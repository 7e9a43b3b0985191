// A structural JSON-Schema check for structured output (issue 16 item 5). Not a validator: it checks what a
// model gets wrong in practice — the type (JSON Schema's lower-case names and the generate-content protocol's
// upper-case ones, `nullable`), required keys, enum/const, and the same recursively through properties, items,
// anyOf/oneOf/allOf. Formats, patterns, bounds and $ref are not checked. The first problem is reported, worded
// for core (it is quoted in the retry). Pure.

const MAX_DEPTH = 32;
const MAX_ITEMS = 1000;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

function typeMatches(v: unknown, type: string): boolean {
  switch (type) {
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    default:
      return jsonTypeOf(v) === type;
  }
}

function typesOf(schema: Record<string, unknown>): string[] | null {
  const t = schema.type;
  const list = typeof t === "string" ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
  const types = list.map((x) => x.toLowerCase()).filter((x) => x !== "type_unspecified");
  if (types.length === 0) return null;
  if (schema.nullable === true) types.push("null");
  return types;
}

const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** The first way `value` does not fit `schema`, or null. `path` is JSONPath-like: `$`, `$.a`, `$.list[2]`. */
export function schemaProblem(value: unknown, schema: unknown, path = "$", depth = 0): string | null {
  if (!isObject(schema) || depth > MAX_DEPTH) return null;
  const types = typesOf(schema);
  if (types && !types.some((t) => typeMatches(value, t))) return `${path} must be ${types.join(" or ")}, not ${jsonTypeOf(value)}`;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return `${path} must be one of ${show(schema.enum)}`;
  if ("const" in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return `${path} must be ${show(schema.const)}`;
  for (const key of ["anyOf", "oneOf"] as const) {
    const alts = schema[key];
    if (Array.isArray(alts) && alts.length && !alts.some((s) => schemaProblem(value, s, path, depth + 1) === null)) return `${path} matches none of the allowed shapes (${key})`;
  }
  if (Array.isArray(schema.allOf)) {
    for (const s of schema.allOf) {
      const p = schemaProblem(value, s, path, depth + 1);
      if (p) return p;
    }
  }
  if (isObject(value)) {
    if (Array.isArray(schema.required)) for (const k of schema.required) if (typeof k === "string" && !(k in value)) return `${path}.${k} is required but missing`;
    if (isObject(schema.properties)) {
      for (const [k, sub] of Object.entries(schema.properties)) {
        if (!(k in value)) continue;
        const p = schemaProblem(value[k], sub, `${path}.${k}`, depth + 1);
        if (p) return p;
      }
      if (schema.additionalProperties === false) {
        const extra = Object.keys(value).find((k) => !(k in (schema.properties as Record<string, unknown>)));
        if (extra !== undefined) return `${path}.${extra} is not allowed (no additional properties)`;
      }
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (let i = 0; i < Math.min(value.length, MAX_ITEMS); i++) {
      const p = schemaProblem(value[i], schema.items, `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

/** The top-level shape a schema asks for, to steer the extractor past brackets in the prose. */
export function wantedKind(schema: unknown): "object" | "array" | "any" {
  if (!isObject(schema)) return "any";
  const types = typesOf(schema);
  if (types?.length === 1 && (types[0] === "object" || types[0] === "array")) return types[0];
  if (!types && isObject(schema.properties)) return "object";
  return "any";
}
