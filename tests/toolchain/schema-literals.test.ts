// The compiled binary carries the request-body and configuration schemas as literals built at build time
// (scripts/schema-literals.ts, issue 35). Each literal module must equal its source module export by export:
// the same keys in the same order (OpenAPI documents and validation messages follow it), the same symbol keys
// (TypeBox's Kind and Optional drive validation), the same values, and the same sharing of objects.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { literalModule, schemaLiteralSource, SCHEMA_MODULES } from "../../scripts/schema-literals";
import { scratchDir } from "../helpers/scratch";

const ROOT = resolve(import.meta.dir, "../..");

/** Where `a` and `b` differ (keys and their order, symbol keys, values, prototypes, sharing), or null. */
function difference(a: unknown, b: unknown, path = "", pairs = new Map<object, object>()): string | null {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b) ? null : `${path}: ${String(a)} ≠ ${String(b)}`;
  }
  // Sharing: an object met again must be met again on the other side too, as the same partner.
  const partner = pairs.get(a);
  if (partner !== undefined) return partner === b ? null : `${path}: shared in one, not in the other`;
  pairs.set(a, b);
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototypes differ`;
  if (a instanceof RegExp) return String(a) === String(b) ? null : `${path}: ${String(a)} ≠ ${String(b)}`;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return `${path}: keys ${ka.map(String).join(",")} ≠ ${kb.map(String).join(",")}`;
  for (const k of ka) {
    const d = difference((a as Record<PropertyKey, unknown>)[k], (b as Record<PropertyKey, unknown>)[k], `${path}.${String(k)}`, pairs);
    if (d) return d;
  }
  return null;
}

async function importSource(text: string): Promise<Record<string, unknown>> {
  const file = join(scratchDir("svc-schema-literals-"), "literal.js");
  writeFileSync(file, text);
  return (await import(file)) as Record<string, unknown>;
}

describe("schema modules as build-time literals", () => {
  for (const m of SCHEMA_MODULES) {
    test(`${m}: the literal module equals the source module`, async () => {
      const path = join(ROOT, m);
      const original = (await import(path)) as Record<string, unknown>;
      const literal = await importSource(await schemaLiteralSource(path));
      expect(Object.keys(literal).sort()).toEqual(Object.keys(original).sort());
      // One walk over all exports, so that an object two exports share must stay shared.
      expect(difference({ ...literal }, { ...original })).toBeNull();
    });
  }

  test("the literal carries what TypeBox schemas hold: symbol keys, -0, NaN, infinities, bigints, patterns, null prototypes", async () => {
    const Kind = Symbol.for("TypeBox.Kind");
    const bare = Object.create(null) as Record<string, unknown>;
    bare.x = 1;
    const value = {
      a: { [Kind]: "String", type: "string", pattern: "^\\S+$" },
      n: [-0, NaN, Infinity, -Infinity, 2 ** 60, 10n ** 20n, undefined, null, true],
      r: /a+b/giu,
      bare,
      ["__proto__"]: "a key, not the prototype",
    };
    const back = await importSource(literalModule({ value }, "test"));
    expect(difference(back.value, value)).toBeNull();
    expect(Object.getPrototypeOf(back.value)).toBe(Object.prototype);
  });

  test("objects shared between fields and between exports stay shared, written once", async () => {
    const Str = { type: "string" };
    const Inner = { type: "object", properties: { a: Str, b: Str } };
    const text = literalModule({ Inner, Outer: { type: "array", items: Inner }, Str }, "test");
    expect(text.match(/"type": "string"/g)?.length).toBe(1);
    const back = await importSource(text);
    expect((back.Outer as { items: unknown }).items).toBe(back.Inner);
    expect((back.Inner as { properties: { a: unknown; b: unknown } }).properties.a).toBe(back.Str);
  });

  test("what a literal cannot carry fails the build with the path to it", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => literalModule({ S: { decode: () => 1 } }, "test")).toThrow("S.decode is a function");
    expect(() => literalModule({ S: cyclic }, "test")).toThrow("part of a cycle");
    expect(() => literalModule({ S: { [Symbol("local")]: 1 } }, "test")).toThrow("unregistered symbol");
    expect(() => literalModule({ S: new Map() }, "test")).toThrow("instance of Map");
    const hidden = {};
    Object.defineProperty(hidden, "x", { value: 1, enumerable: false });
    expect(() => literalModule({ S: hidden }, "test")).toThrow("non-enumerable");
    expect(() => literalModule({ S: { get x() { return 1; } } }, "test")).toThrow("accessor");
  });
});
