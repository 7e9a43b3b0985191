// The request-body and configuration schemas, built at build time (issue 35). TypeBox builds a schema through
// a chain of small functions per node (Object → Optional → Union → CreateType → the Is* guards); the gateway's
// ≈ 900 nodes cost a start ≈ 12 ms of interpreter time and, since those functions run hundreds of times, as much
// again of JavaScriptCore's JIT compiling them (baseline, then DFG) — ≈ 25 ms on one CPU, for objects that never
// change. The compiled binary therefore carries each schema module's exports as the object literals TypeBox
// produced: the same plain objects, symbol keys included, evaluated once by the module's top-level code.
// Run from source (tests, `bun src/main.ts`), the modules are unchanged; tests/toolchain/schema-literals.test.ts
// checks that every literal module equals its source module, export by export, symbol keys and shared objects
// included.
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

/**
 * The schema modules a start evaluates, relative to the project root. Each must export only data (the
 * embeddings body carries an Elysia transform, a function, and is small enough to stay as it is).
 */
export const SCHEMA_MODULES = [
  "src/config/schema.ts",
  "src/surfaces/chat/schema.ts",
  "src/surfaces/generate/schema.ts",
  "src/surfaces/messages/schema.ts",
  "src/surfaces/responses/schema.ts",
];

type Path = string;

/** Why a value cannot be written as a literal; the build fails with it rather than embed something else. */
function unsupported(path: Path, what: string): never {
  throw new Error(`schema-literals: ${path} is ${what}, which a literal cannot carry`);
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The own properties of a plain object or array, string keys then symbol keys, as JavaScript enumerates them. */
function ownEntries(v: object, path: Path): [string | symbol, unknown][] {
  const out: [string | symbol, unknown][] = [];
  const descriptors = Object.getOwnPropertyDescriptors(v) as Record<string | symbol, PropertyDescriptor>;
  for (const key of Reflect.ownKeys(descriptors)) {
    if (Array.isArray(v) && key === "length") continue;
    const d = descriptors[key]!;
    if (d.get || d.set) unsupported(`${path}.${String(key)}`, "an accessor");
    if (!d.enumerable) unsupported(`${path}.${String(key)}`, "a non-enumerable property");
    if (typeof key === "symbol" && Symbol.keyFor(key) === undefined) unsupported(`${path}[${String(key)}]`, "keyed by an unregistered symbol");
    out.push([key, d.value]);
  }
  return out;
}

function keySource(key: string | symbol, symbols: Map<string, string>): string {
  if (typeof key === "symbol") {
    const registered = Symbol.keyFor(key)!;
    if (!symbols.has(registered)) symbols.set(registered, `$S${symbols.size}`);
    return `[${symbols.get(registered)}]`;
  }
  // `__proto__: x` in a literal would set the prototype; a computed key defines the property.
  return key === "__proto__" ? `["__proto__"]` : JSON.stringify(key);
}

function scalarSource(v: unknown, path: Path): string {
  if (v === undefined) return "void 0";
  if (v === null || typeof v === "boolean" || typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "NaN";
    if (Object.is(v, -0)) return "-0";
    if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
    return String(v);
  }
  if (typeof v === "bigint") return `${v}n`;
  return unsupported(path, typeof v === "function" ? "a function" : `a ${typeof v}`);
}

/**
 * An ES module whose exports are literals equal to `exports`. An object reached more than once (a sub-schema
 * several fields share, an export another export contains) is written once, as a constant, so that the literal
 * module shares it exactly as the source module does.
 */
export function literalModule(exports: Record<string, unknown>, origin: string): string {
  const seen = new Map<object, number>();
  const count = (v: unknown, path: Path, stack: Set<object>) => {
    if (typeof v !== "object" || v === null) return;
    if (stack.has(v)) unsupported(path, "part of a cycle");
    seen.set(v, (seen.get(v) ?? 0) + 1);
    if (seen.get(v)! > 1) return;
    if (v instanceof RegExp) return;
    if (!Array.isArray(v) && !isPlainObject(v)) unsupported(path, `an instance of ${v.constructor?.name ?? "a class"}`);
    stack.add(v);
    for (const [k, child] of ownEntries(v, path)) count(child, `${path}.${String(k)}`, stack);
    stack.delete(v);
  };
  for (const [name, v] of Object.entries(exports)) count(v, name, new Set());

  const names = new Map<object, string>();
  // Each registered symbol (TypeBox's Kind, Optional, …) is looked up once, not at every node.
  const symbols = new Map<string, string>();
  const lines: string[] = [];
  const source = (v: unknown, path: Path): string => {
    if (typeof v !== "object" || v === null) return scalarSource(v, path);
    const named = names.get(v);
    if (named) return named;
    let text: string;
    if (v instanceof RegExp) text = `new RegExp(${JSON.stringify(v.source)}, ${JSON.stringify(v.flags)})`;
    else if (Array.isArray(v)) {
      if (Object.keys(v).length !== v.length) unsupported(path, "an array with holes or extra properties");
      text = `[${v.map((item, i) => source(item, `${path}[${i}]`)).join(", ")}]`;
    } else {
      const entries = ownEntries(v, path).map(([k, child]) => `${keySource(k, symbols)}: ${source(child, `${path}.${String(k)}`)}`);
      text = Object.getPrototypeOf(v) === null ? `{ __proto__: null, ${entries.join(", ")} }` : `{ ${entries.join(", ")} }`;
    }
    if (seen.get(v)! > 1) {
      const name = `$${names.size}`;
      lines.push(`const ${name} = ${text};`);
      names.set(v, name);
      return name;
    }
    return text;
  };
  const exported = Object.entries(exports).map(([name, v]) => `export const ${name} = ${source(v, name)};`);
  const symbolLines = [...symbols].map(([key, name]) => `const ${name} = Symbol.for(${JSON.stringify(key)});`);
  return [`// ${origin}, its exports as built by TypeBox at build time (scripts/schema-literals.ts).`, ...symbolLines, ...lines, ...exported, ""].join("\n");
}

/** The literal module of one schema module, by its absolute path. */
export async function schemaLiteralSource(path: string): Promise<string> {
  const exports = (await import(path)) as Record<string, unknown>;
  const own: Record<string, unknown> = {};
  for (const name of Object.keys(exports)) {
    if (name === "default") unsupported(`${path} default`, "a default export");
    own[name] = exports[name];
  }
  return literalModule(own, path.slice(ROOT.length + 1));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const FILTER = new RegExp(`^${escape(ROOT)}/(${SCHEMA_MODULES.map(escape).join("|")})$`);

/** The build plugin: each schema module's source is replaced by its literal module. */
export const schemaLiterals: Bun.BunPlugin = {
  name: "schema-literals",
  setup(build) {
    build.onLoad({ filter: FILTER }, async (args) => ({ contents: await schemaLiteralSource(args.path), loader: "js" }));
  },
};
