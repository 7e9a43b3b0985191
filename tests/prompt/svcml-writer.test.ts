import { describe, expect, test } from "bun:test";
import { cdata, writeToolCalls } from "../../src/prompt/svcml-writer";
import { parseWholeText } from "../../src/pipeline/svcml/parse";
import { typeParameterValue } from "../../src/pipeline/svcml/typing";

/** Reads a written block back with the real recogniser and returns each call's arguments. */
function readBack(text: string): { name: string; args: unknown }[] {
  return parseWholeText(text).calls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) }));
}

function roundTrip(args: Record<string, unknown>, name = "tool") {
  const text = writeToolCalls([{ name, arguments: args }]);
  expect(readBack(text)).toEqual([{ name, args }]);
  return text;
}

describe("svcml writer (§3.7)", () => {
  test("writes the recommended shell deterministically, strings in CDATA and numbers plain", () => {
    const text = writeToolCalls([{ name: "read_file", arguments: '{"path":"src/main.ts","limit":200}' }]);
    expect(text).toBe(
      [
        "<|svcml|tool_calls>",
        '  <|svcml|invoke name="read_file">',
        '    <|svcml|parameter name="path"><![CDATA[src/main.ts]]></|svcml|parameter>',
        '    <|svcml|parameter name="limit">200</|svcml|parameter>',
        "  </|svcml|invoke>",
        "</|svcml|tool_calls>",
      ].join("\n"),
    );
  });

  test("a call without arguments is one line; calls without a name are skipped", () => {
    expect(writeToolCalls([{ name: "now", arguments: "{}" }, { name: "", arguments: {} }])).toBe(
      '<|svcml|tool_calls>\n  <|svcml|invoke name="now"></|svcml|invoke>\n</|svcml|tool_calls>',
    );
    expect(writeToolCalls([{ name: "", arguments: {} }])).toBe("");
  });

  test("several calls of one turn share one wrapper", () => {
    const text = writeToolCalls([
      { name: "a", arguments: { x: 1 } },
      { name: "b", arguments: { y: "z" } },
    ]);
    expect(text.match(/tool_calls>/g)?.length).toBe(2);
    expect(readBack(text)).toEqual([
      { name: "a", args: { x: 1 } },
      { name: "b", args: { y: "z" } },
    ]);
  });

  test("escapes the tool name as an attribute", () => {
    const text = writeToolCalls([{ name: 'a&b<c>"d', arguments: {} }]);
    expect(text).toContain('name="a&amp;b&lt;c&gt;&quot;d"');
  });

  test("]]> inside a string is split across two CDATA sections", () => {
    expect(cdata("a]]>b")).toBe("<![CDATA[a]]]]><![CDATA[>b]]>");
    roundTrip({ text: "a]]>b", other: "]]>", twice: "x]]>]]>y" });
  });

  test("strings that read as JSON literals are written as JSON string literals", () => {
    const text = roundTrip({ id: "42", flag: "true", nothing: "null", list: "[1]", obj: '{"a":1}', neg: "-5" });
    expect(text).toContain('<|svcml|parameter name="id"><![CDATA["42"]]>');
    expect(text).toContain('<|svcml|parameter name="flag"><![CDATA["true"]]>');
  });

  test("strings that look like XML or loose lists are protected outside the keep-as-text names only", () => {
    const text = roundTrip({ body: "<a>1</a><b>2</b>", content: "<a>1</a><b>2</b>", items: '{"a":1}, {"b":2}', tag: "<b>urgent</b>" });
    expect(text).toContain('name="content"><![CDATA[<a>1</a><b>2</b>]]>');
    expect(text).toContain('name="body"><![CDATA["<a>1</a><b>2</b>"]]>');
    expect(text).toContain('name="tag"><![CDATA[<b>urgent</b>]]>');
  });

  test("whitespace, empty strings, multi-line text and unicode survive", () => {
    roundTrip({ pad: "  spaced\n", empty: "", lines: "line 1\nline 2\n", uni: "héllo 🌍 ｜ ▁ 漢字", fence: "```ts\nconst a = 1;\n```" });
  });

  test("numbers, booleans and null are plain; empty containers are {} and []", () => {
    const text = roundTrip({ n: 1.5, z: 0, neg: -3, big: 1e21, t: true, f: false, nil: null, eo: {}, ea: [], s: "x" });
    expect(text).toContain('name="t">true<');
    expect(text).toContain('name="eo">{}<');
    expect(text).toContain('name="ea">[]<');
  });

  test("objects become indented child elements and arrays <item> children", () => {
    const text = roundTrip({ options: { mode: "fast", retries: 2, tags: ["a", "b"] } });
    expect(text).toContain(
      [
        '    <|svcml|parameter name="options">',
        "      <mode><![CDATA[fast]]></mode>",
        "      <retries>2</retries>",
        "      <tags>",
        "        <item><![CDATA[a]]></item>",
        "        <item><![CDATA[b]]></item>",
        "      </tags>",
        "    </|svcml|parameter>",
      ].join("\n"),
    );
  });

  test("nested strings that would be retyped are protected too", () => {
    roundTrip({ deep: { id: "007", n: "12", pad: " x ", amp: "a &amp; b &lt;", cut: "x]]>y", nested: [["1", 2], [], {}, { k: "v" }] } });
    roundTrip({ list: [{ label: "A" }, { label: "B" }], one: ["only"], nums: [1, 2, 3] });
  });

  test("keys that are not XML names or are tool tag names go as compact JSON in CDATA", () => {
    const text = roundTrip({ headers: { "Content-Type": "x", "a b": 1 }, odd: { ünï: 2 }, tags: { invoke: 1 }, deep: { x: { svcml_parameter: "y" } } });
    expect(text).toContain('name="headers"><![CDATA[{"Content-Type":"x","a b":1}]]>');
    expect(text).toContain('name="tags"><![CDATA[{"invoke":1}]]>');
  });

  test("arguments that are not an object go raw into one `arguments` parameter", () => {
    expect(writeToolCalls([{ name: "x", arguments: "not json" }])).toContain('<|svcml|parameter name="arguments"><![CDATA[not json]]>');
    expect(writeToolCalls([{ name: "x", arguments: "[1,2]" }])).toContain('name="arguments"><![CDATA[[1,2]]]>');
  });

  test("fenced text containing ]]> reads back whole, at the top and nested", () => {
    roundTrip({ content: "```\n]]>\n", code: "```\nunclosed ]]> fence", md: "```md\nx\n```" });
    roundTrip({ a: { b: "```\n]]>" } });
    for (const v of ["```", "x\n```", "~~~~", "a\n  ```js", "```\n```", "````\n```\n", "x```"]) roundTrip({ content: v, after: "y" });
  });

  test("every written top-level string reads back under typeParameterValue", () => {
    const samples = ["42", " 42 ", "1e3", "0123", "True", "{}", "[]", '"q"', "<x/>", "<item>a</item>", "a, b", '{"a":1},{"b":2}', "&amp;", "]]>", "<![CDATA[x]]>"];
    for (const name of ["value", "content"]) {
      for (const s of samples) {
        const text = writeToolCalls([{ name: "t", arguments: { [name]: s } }]);
        const body = text.split(`name="${name}">`)[1]!.split("</|svcml|parameter>")[0]!;
        expect(typeParameterValue(name, body)).toBe(s);
      }
    }
  });
});

describe("svcml writer round trip over generated strings", () => {
  // Seeded so a failure is reproducible; the pieces are the ones that trip value typing and value ends.
  const pieces = ["]]>", "```", "~~~", "\n", " ", "<a>", "</a>", "<item>", "</item>", "42", "true", "null", "&amp;", "&", "é🌍", "{", "}", "[", "]", ",", '"', ":", "<![CDATA[", "</|svcml|parameter>", "<|svcml|invoke name=\"x\">", "</tool_calls>", "<!--", "-->", "x", "key"];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const randomString = () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => pieces[Math.floor(next() * pieces.length)]).join("");

  test("top-level and nested strings read back exactly through the detector", () => {
    for (let i = 0; i < 300; i++) {
      const s = randomString();
      const name = i % 3 === 0 ? "content" : "value";
      const args = { [name]: s, nested: { inner: s, list: [s] }, tail: "end" };
      const text = writeToolCalls([{ name: "t", arguments: args }]);
      const calls = parseWholeText(text).calls;
      expect({ s, got: calls.length === 1 ? JSON.parse(calls[0]!.arguments) : calls }).toEqual({ s, got: args });
    }
  });
});
