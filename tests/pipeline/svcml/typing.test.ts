// Value typing of parameter bodies (svcml-and-prompts.md §1.7, CDATA values §1.6), the function the prompt
// writer also uses to check that a string it writes reads back as itself.
import { describe, expect, test } from "bun:test";
import { isEmptyValue, NEEDS_RAW_BODY, typeCdataValue, typeParameterValue, typeParameterValueByProbes } from "../../../src/pipeline/svcml/typing";

const t = typeParameterValue;

describe("typeParameterValue", () => {
  test("JSON literals become values; near-literals stay strings", () => {
    expect(t("x", "123")).toBe(123);
    expect(t("x", "1e3")).toBe(1000);
    expect(t("x", " -5 ")).toBe(-5);
    expect(t("x", "true")).toBe(true);
    expect(t("x", "null")).toBe(null);
    expect(t("x", '"quoted"')).toBe("quoted");
    expect(t("x", "[1,2]")).toEqual([1, 2]);
    expect(t("x", '{"a":1}')).toEqual({ a: 1 });
    expect(t("x", "0123")).toBe("0123");
    expect(t("x", "True")).toBe("True");
  });

  test("an empty body is the empty string; plain values are trimmed", () => {
    expect(t("x", "")).toBe("");
    expect(t("x", "  \n ")).toBe("");
    expect(t("x", "  hello  ")).toBe("hello");
  });

  test("keep-as-text names still read JSON literals but never XML or loose lists", () => {
    expect(t("content", "<![CDATA[42]]>")).toBe(42);
    expect(t("content", "<a><b>1</b></a>")).toBe("<a><b>1</b></a>");
    expect(t("Content", "<a><b>1</b></a>")).toBe("<a><b>1</b></a>");
    expect(t("x", "<a><b>1</b></a>")).toEqual({ a: { b: 1 } });
    expect(t("command", '{"a":1}, {"b":2}')).toBe('{"a":1}, {"b":2}');
  });

  test("CDATA values are exact: not trimmed, sections rejoined, inner ]]> kept", () => {
    expect(t("x", "<![CDATA[  spaced\n]]>")).toBe("  spaced\n");
    expect(t("x", "<![CDATA[a]]>b]]>")).toBe("a]]>b");
    expect(t("x", "<![CDATA[a]]]]><![CDATA[>b]]>")).toBe("a]]>b");
    expect(t("content", "<![CDATA[<q>x</q>]]>")).toBe("<q>x</q>");
    expect(t("content", "<![CDATA[&amp;]]>")).toBe("&amp;");
  });

  test("structured XML fragments map to objects and arrays, with item unwrapping", () => {
    expect(t("x", "<tag>a</tag><tag>b</tag><mode>x</mode>")).toEqual({ tag: ["a", "b"], mode: "x" });
    expect(t("x", "<item><label>A</label></item><item><label>B</label></item>")).toEqual([{ label: "A" }, { label: "B" }]);
    expect(t("todos", "<todos><item>a</item></todos>")).toEqual(["a"]);
    expect(t("x", "<b>urgent</b>")).toBe("<b>urgent</b>");
  });

  test("loose JSON lists with repairs", () => {
    expect(t("x", '{"a":1}, {"b":2}')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(t("x", '{name: "a"}, {name: "b"}')).toEqual([{ name: "a" }, { name: "b" }]);
    expect(t("x", '{"p":"C:\\Users"}, {"p":"D:\\x"}')).toEqual([{ p: "C:\\Users" }, { p: "D:\\x" }]);
  });

  test("unwrapping of item wrappers and of an object keyed by the parameter name", () => {
    expect(t("x", '{"item":[1,2]}')).toEqual([1, 2]);
    expect(t("files", '{"files":[1]}')).toEqual([1]);
  });

  test("entities are decoded exactly once", () => {
    expect(t("x", "&amp;lt;")).toBe("&lt;");
    expect(t("x", "a &lt; b &#65;&#x42;")).toBe("a < b AB");
  });

  test("a string the prompt writer emits as CDATA reads back as itself", () => {
    for (const s of ["hello", "  padded  ", "a]]>b", "<tag>x</tag>", "line1\nline2", "ünïcödé 𝄞"]) {
      const body = `<![CDATA[${s.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;
      expect(t("content", body)).toBe(s);
    }
  });
});

describe("isEmptyValue (all-empty filter, §1.5)", () => {
  test("null, blank strings and containers of only empty values are empty; 0 and false are not", () => {
    for (const v of [null, "", "  ", {}, [], [""], { a: [] }]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, false, "x", [0], { a: "b" }]) expect(isEmptyValue(v)).toBe(false);
  });
});

describe("the shortcut for simple values", () => {
  // Words, paths and numbers skip the XML/JSON/list probes; every reading must stay what the probes give.
  const bodies = [
    "<b>x</b>, y", "cat a | grep b 2>&1", "line1\nline2 <tag>", "{\"a\": 1}", "[1, 2]",
    "200", "-1", "-0", "0", "01", "1.", "1.5", "-1.5e3", "1E+2", "1e", "-", "--1", "0x10", "Infinity", "NaN",
    "00", "-01", "-00", "007", "12a", "1-2", "9".repeat(20), `-${"9".repeat(40)}`, "1".repeat(33),
    "true", "false", "null", "True", "truex", "nul", "t", "f", "n", "the file", "src/main.ts", "a b c",
    "a,b", "1,2", "[1]", "{}", "\"q\"", "a]", "]", "a: 1", "x\\y", "&amp;", "a &lt;b&gt;", "<a>1</a><b>2</b>",
    " spaced ", "\n200\n", "é", "😀", "a\tb",
  ];
  const names = ["limit", "path", "content", "value"];
  for (const name of names) {
    test(`agrees with the probes for parameter "${name}"`, () => {
      for (const v of bodies) {
        for (const body of [v, `<![CDATA[${v}]]>`, ` <![CDATA[${v}]]> `]) {
          expect({ body, value: typeParameterValue(name, body) }).toEqual({ body, value: typeParameterValueByProbes(name, body) });
        }
        // The detector's path for one CDATA section whose bounds it already knows.
        const body = `<![CDATA[${v}]]>`;
        const direct = typeCdataValue(name, v);
        const value = direct === NEEDS_RAW_BODY ? typeParameterValueByProbes(name, body) : direct;
        expect({ body, value }).toEqual({ body, value: typeParameterValueByProbes(name, body) });
      }
    });
  }
});
