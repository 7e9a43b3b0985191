// frameJson's reading of a token frame by its characters (issue 17) gives exactly what JSON.parse gives, and
// leaves to the parser every frame it cannot read that way.
import { describe, expect, test } from "bun:test";
import { bareStringValue, frameJson } from "../../src/core/sse";

const parsed = (data: string) => {
  try {
    const v = JSON.parse(data);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
};

describe("frameJson", () => {
  const cases = [
    '{"v":"word"}',
    '{"v":""}',
    '{"v":" two words "}',
    '{"v":"中文😀"}',
    '{"v":"a\\nb"}',
    '{"v":"q\\"uote"}',
    '{"v":"back\\\\slash"}',
    '{"v":"\\u00e9"}',
    '{"v":"tab\there"}', // a raw control character: invalid JSON
    '{"v":"line\nbreak"}',
    '{"v":"unterminated}',
    '{"v":"a","p":"x"}',
    '{"v":"a"} ',
    ' {"v":"a"}',
    '{ "v":"a"}',
    '{"v": "a"}',
    '{"w":"a"}',
    '{"v":1}',
    '{"v":"a"}}',
    '{"v":"a""}',
    '{"v":"',
    '{"v":"}',
    "[DONE]",
    "",
  ];
  for (const data of cases)
    test(`${JSON.stringify(data)} reads as JSON.parse reads it`, () => {
      expect(frameJson({ event: "message", data })).toEqual(parsed(data));
    });

  test("a plain token is read without the parser; anything with an escape, a space or another key is not", () => {
    expect(bareStringValue('{"v":" hello"}')).toBe(" hello");
    expect(bareStringValue('{"v":""}')).toBe("");
    for (const d of ['{"v":"a\\n"}', '{"v": "a"}', '{"v":"a","o":"SET"}', '{"v":"a\u0001"}', '{"v":"a"} ']) expect(bareStringValue(d)).toBeUndefined();
  });

  test("parsed once: the frame keeps what the first reader got", () => {
    const f = { event: "message", data: '{"v":"x"}' };
    expect(frameJson(f)).toBe(frameJson(f));
  });
});
