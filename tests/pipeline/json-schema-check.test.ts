// The structural schema check of structured output (issue 16 item 5).
import { describe, expect, test } from "bun:test";
import { jsonTypeOf, schemaProblem, wantedKind } from "../../src/pipeline/json-schema-check";

const person = {
  type: "object",
  properties: {
    name: { type: "string" },
    age: { type: "integer" },
    tags: { type: "array", items: { type: "string" } },
    kind: { enum: ["a", "b"] },
    address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  required: ["name", "age"],
};

describe("schemaProblem", () => {
  test("a fitting value has no problem", () => {
    expect(schemaProblem({ name: "x", age: 3, tags: ["t"], kind: "a", address: { city: "Oslo" }, extra: 1 }, person)).toBeNull();
  });

  test.each([
    [[], "$ must be object, not array"],
    [{ age: 3 }, "$.name is required but missing"],
    [{ name: "x", age: 3.5 }, "$.age must be integer, not number"],
    [{ name: "x", age: "3" }, "$.age must be integer, not string"],
    [{ name: "x", age: 3, tags: ["a", 2] }, "$.tags[1] must be string, not number"],
    [{ name: "x", age: 3, kind: "c" }, '$.kind must be one of ["a","b"]'],
    [{ name: "x", age: 3, address: {} }, "$.address.city is required but missing"],
    [{ name: null, age: 3 }, "$.name must be string, not null"],
  ])("%j → %s", (value, problem) => {
    expect(schemaProblem(value, person)).toBe(problem);
  });

  test("upper-case type names and nullable (generate-content's schema)", () => {
    const s = { type: "OBJECT", properties: { n: { type: "NUMBER", nullable: true } }, required: ["n"] };
    expect(schemaProblem({ n: null }, s)).toBeNull();
    expect(schemaProblem({ n: 1.5 }, s)).toBeNull();
    expect(schemaProblem({ n: "1" }, s)).toBe("$.n must be number or null, not string");
    expect(schemaProblem({}, { type: "TYPE_UNSPECIFIED" })).toBeNull();
  });

  test("type lists, const, anyOf / oneOf / allOf, additionalProperties false", () => {
    expect(schemaProblem(null, { type: ["string", "null"] })).toBeNull();
    expect(schemaProblem(true, { type: ["string", "null"] })).toBe("$ must be string or null, not boolean");
    expect(schemaProblem("v1", { const: "v1" })).toBeNull();
    expect(schemaProblem("v2", { const: "v1" })).toBe('$ must be "v1"');
    expect(schemaProblem(1, { anyOf: [{ type: "string" }, { type: "integer" }] })).toBeNull();
    expect(schemaProblem(true, { oneOf: [{ type: "string" }, { type: "integer" }] })).toBe("$ matches none of the allowed shapes (oneOf)");
    expect(schemaProblem({ a: 1 }, { allOf: [{ required: ["a"] }, { required: ["b"] }] })).toBe("$.b is required but missing");
    expect(schemaProblem({ a: 1, b: 2 }, { type: "object", properties: { a: {} }, additionalProperties: false })).toBe("$.b is not allowed (no additional properties)");
  });

  test("what it does not check: formats, patterns, bounds, $ref; a non-object schema accepts anything", () => {
    expect(schemaProblem("x", { type: "string", format: "email", pattern: "^a", minLength: 5 })).toBeNull();
    expect(schemaProblem(1, { $ref: "#/$defs/x" })).toBeNull();
    expect(schemaProblem(1, true)).toBeNull();
    expect(schemaProblem(1, undefined)).toBeNull();
  });

  test("number is finite; integer is a whole number", () => {
    expect(schemaProblem(2, { type: "number" })).toBeNull();
    expect(schemaProblem(2.0, { type: "integer" })).toBeNull();
  });

  test("a deeply nested schema stops at a depth limit instead of recursing without end", () => {
    let schema: Record<string, unknown> = { type: "string" };
    let value: unknown = 1;
    for (let i = 0; i < 100; i++) {
      schema = { type: "array", items: schema };
      value = [value];
    }
    expect(schemaProblem(value, schema)).toBeNull();
  });
});

describe("wantedKind and jsonTypeOf", () => {
  test("the shape a schema asks for", () => {
    expect(wantedKind({ type: "object" })).toBe("object");
    expect(wantedKind({ type: "ARRAY" })).toBe("array");
    expect(wantedKind({ properties: { a: {} } })).toBe("object");
    expect(wantedKind({ type: ["object", "null"] })).toBe("any");
    expect(wantedKind({ type: "string" })).toBe("any");
    expect(wantedKind(undefined)).toBe("any");
  });

  test("JSON type names", () => {
    expect([null, [], {}, "", 1, true].map(jsonTypeOf)).toEqual(["null", "array", "object", "string", "number", "boolean"]);
  });
});
