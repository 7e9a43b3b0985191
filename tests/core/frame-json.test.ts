// frameJson's reading of a token frame by its characters (issue 17) gives exactly what JSON.parse gives, and
// leaves to the parser every frame it cannot read that way.
import { describe, expect, test } from "bun:test";
import { SseDecoder, bareStringValue, frameJson } from "../../src/core/sse";

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
    const read = (d: string) => bareStringValue(d, 0, d.length);
    expect(read('{"v":" hello"}')).toBe(" hello");
    expect(read('{"v":""}')).toBe("");
    for (const d of ['{"v":"a\\n"}', '{"v": "a"}', '{"v":"a","o":"SET"}', '{"v":"a\u0001"}', '{"v":"a"} ']) expect(read(d)).toBeUndefined();
    // A range inside a longer string: the line as the decoder sees it in its chunk.
    const chunk = 'data: {"v":"tok"}\ndata: {"v":"x\\"}\n';
    expect(bareStringValue(chunk, 6, 17)).toBe("tok");
    expect(bareStringValue(chunk, 24, chunk.length - 1)).toBeUndefined();
  });

  test("the decoder reads plain tokens in its chunks as JSON.parse would, whole and one character at a time", () => {
    const lines = cases.filter((d) => !d.includes("\n") && d !== "");
    const body = lines.map((d) => `data: ${d}\n\n`).join("") + 'data: {"v":"multi"}\ndata: {"v":"line"}\n\n';
    for (const chunks of [[body], [...body]]) {
      const d = new SseDecoder();
      const frames = [...chunks.flatMap((c) => d.push(c)), ...d.end()];
      expect(frames.map((f) => f.data)).toEqual([...lines, '{"v":"multi"}\n{"v":"line"}']);
      for (const f of frames) expect(frameJson(f)).toEqual(parsed(f.data));
    }
  });

  test("parsed once: the frame keeps what the first reader got", () => {
    const f = { event: "message", data: '{"v":"x"}' };
    expect(frameJson(f)).toBe(frameJson(f));
  });
});
