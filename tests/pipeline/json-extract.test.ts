// extractJson (issue 16 item 5): the JSON value inside core's answer, returned exactly as core wrote it.
import { describe, expect, test } from "bun:test";
import { extractJson, fenceBodies, matchingBracket } from "../../src/pipeline/json-extract";

const ok = (text: string, want?: "object" | "array" | "any") => {
  const r = extractJson(text, want);
  expect(r.ok).toBe(true);
  return r.json;
};

describe("extractJson: answers that are JSON already", () => {
  test.each([
    ['{"a":1}', '{"a":1}'],
    ['  \n{"a": 1}\n\n', '{"a": 1}'],
    ["[1, 2, 3]", "[1, 2, 3]"],
    ['"just a string"', '"just a string"'],
    ["42", "42"],
    ["true", "true"],
    ["null", "null"],
    ['\uFEFF{"bom":true}', '{"bom":true}'],
    ['{"n": 1.50e3, "s": "\\u00e9"}', '{"n": 1.50e3, "s": "\\u00e9"}'],
  ])("%j → %j, byte for byte (never re-serialised)", (input, json) => {
    expect(ok(input)).toBe(json);
  });

  test("the parsed value comes with it", () => {
    expect(extractJson('{"a":[1,{"b":null}]}').value).toEqual({ a: [1, { b: null }] });
  });
});

describe("extractJson: fences", () => {
  test.each([
    ['```json\n{"a":1}\n```', '{"a":1}'],
    ['```JSON\n{"a":1}\n```', '{"a":1}'],
    ['```\n{"a":1}\n```', '{"a":1}'],
    ['~~~json\n{"a":1}\n~~~', '{"a":1}'],
    ['````json\n{"a":"```"}\n````', '{"a":"```"}'],
    ['Here you go:\n\n```json\n{\n  "a": 1\n}\n```\n\nHope this helps!', '{\n  "a": 1\n}'],
    ['```json\r\n{"a":1}\r\n```', '{"a":1}'],
    ['  ```json  \n  {"a":1}\n  ```  ', '{"a":1}'],
    ['```json\n{"a":1}', '{"a":1}'],
  ])("%j → %j", (input, json) => {
    expect(ok(input)).toBe(json);
  });

  test("a json-labelled fence wins over an earlier unlabelled one; a fence that does not parse is skipped", () => {
    expect(ok('```\nnot json\n```\n\n```python\nprint(1)\n```\n\n```json\n{"b":2}\n```')).toBe('{"b":2}');
    expect(ok('```\n[1]\n```\n```json\n{"b":2}\n```')).toBe('{"b":2}');
  });

  test("with a wanted shape, a fence of that shape wins", () => {
    expect(ok('```json\n[1]\n```\n```json\n{"b":2}\n```', "object")).toBe('{"b":2}');
    expect(ok('```json\n[1]\n```\n```json\n{"b":2}\n```', "array")).toBe("[1]");
  });

  test("fenceBodies: info strings, unclosed last fence, a shorter closing fence does not close", () => {
    expect(fenceBodies("a\n```json x\n1\n```\nb\n```\n2")).toEqual([
      { info: "json x", body: "1" },
      { info: "", body: "2" },
    ]);
    expect(fenceBodies("````\n```\n1\n````")).toEqual([{ info: "", body: "```\n1" }]);
    expect(fenceBodies("no fences")).toEqual([]);
  });
});

describe("extractJson: prose around the value", () => {
  test.each([
    ['Sure! {"a":1}', '{"a":1}'],
    ['{"a":1}\n\nThis object has one key.', '{"a":1}'],
    ['The answer is {"a":{"b":[1,2]}} as requested.', '{"a":{"b":[1,2]}}'],
    ['Note {x} then {"a":1}', '{"a":1}'],
    ['Braces in strings: {"s":"} ] {"}', '{"s":"} ] {"}'],
    ['Escaped quote: {"s":"a\\"}b"}', '{"s":"a\\"}b"}'],
    ["List: [1, 2] done", "[1, 2]"],
  ])("%j → %j", (input, json) => {
    expect(ok(input)).toBe(json);
  });

  test("an object is wanted: a bracketed reference in the prose before it is passed over", () => {
    expect(ok('See [1] and [2]: {"a":1}', "object")).toBe('{"a":1}');
    expect(ok('See [1] and [2]: {"a":1}')).toBe("[1]");
  });

  test("an array is wanted: the array inside the prose, not an object before it", () => {
    expect(ok('Given {"k":1}, the list is ["x","y"]', "array")).toBe('["x","y"]');
  });

  test("nothing of the wanted shape: a value of another shape is still returned (the schema check judges it)", () => {
    expect(ok("Only [1,2] here", "object")).toBe("[1,2]");
  });

  test("many unbalanced brackets before the value: the search is bounded, not quadratic", () => {
    const noise = "[".repeat(50_000);
    const t0 = performance.now();
    const r = extractJson(`${noise} no value`);
    expect(r.ok).toBe(false);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe("extractJson: failures keep the answer as is and say why", () => {
  test("empty answer", () => {
    expect(extractJson("  \n ")).toEqual({ json: "", ok: false, problem: "the answer was empty; it must be a JSON value" });
  });

  test("prose only", () => {
    expect(extractJson(" I cannot do that. ")).toEqual({ json: "I cannot do that.", ok: false, problem: "the answer contains no JSON value" });
  });

  test("a value that does not parse names the parser's complaint", () => {
    const r = extractJson('{"a": 1,}');
    expect(r.ok).toBe(false);
    expect(r.json).toBe('{"a": 1,}');
    expect(r.problem).toStartWith("the JSON does not parse (");
    expect(extractJson("{'a': 1}").problem).toStartWith("the JSON does not parse (");
  });

  test("a value cut off before its end", () => {
    const r = extractJson('{"a": [1, 2');
    expect(r).toEqual({ json: '{"a": [1, 2', ok: false, problem: "the JSON value was cut off before its end" });
  });
});

describe("matchingBracket", () => {
  test("nesting, strings, escapes, mismatches", () => {
    expect(matchingBracket('{"a":[1,{"b":2}]}x', 0)).toBe(16);
    expect(matchingBracket('["]",1]', 0)).toBe(6);
    expect(matchingBracket('["\\"]"]', 0)).toBe(6);
    expect(matchingBracket("{]", 0)).toBe(-1);
    expect(matchingBracket("{[}", 0)).toBe(-1);
    expect(matchingBracket("{", 0)).toBe(-1);
  });
});
