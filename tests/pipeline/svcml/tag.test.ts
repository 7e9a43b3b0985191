// The tool-tag scanner (svcml-and-prompts.md §1.1, §1.2): every accepted spelling, look-alikes rejected,
// partial tags held only while they can still become a tag, ASCII-only case folding, original offsets.
import { describe, expect, test } from "bun:test";
import { scanAnyTag, scanTag, type Tag } from "../../../src/pipeline/svcml/tag";

function tagOf(s: string, i = 0, final = true): Tag {
  const r = scanTag(s, i, final);
  if (r.type !== "tag") throw new Error(`not a tag: ${s} (${r.type})`);
  return r;
}

describe("scanTag", () => {
  test("accepts every spelling of the wrapper as the same opening tag", () => {
    const forms = [
      "<|svcml|tool_calls>",
      "<svcml|tool_calls>",
      "<|tool_calls>",
      "<｜tool_calls>",
      "<｜svcml|tool_calls>",
      "<|svcml tool_calls>",
      "<svcmltool_calls>",
      "<svcml-tool-calls>",
      "<svcml_tool_calls>",
      "<svcml-tool_calls>",
      "<<svcml|svcml|tool_calls>",
      "<<|svcml|tool_calls>",
      "< tool_calls>",
      "<SVCML|tool_calls>",
      "<SvcMl|Tool_Calls>",
      "<TOOL_CALLS>",
      "<tool_calls>",
    ];
    for (const f of forms) {
      const t = tagOf(f);
      expect({ f, kind: t.kind, closing: t.closing, end: t.end }).toEqual({ f, kind: "tool_calls", closing: false, end: f.length });
    }
  });

  test("closing tags: `/` only right after the run of `<`", () => {
    expect(tagOf("</|svcml|invoke>").closing).toBe(true);
    expect(tagOf("<</tool_calls>").closing).toBe(true);
    expect(scanTag("<|/invoke>", 0, true).type).toBe("none");
  });

  test("look-alike names are not tags", () => {
    for (const s of ["<tool_calls_extra>", "<tool_call>", "<tools>", "<tool_name>", "<invoke_x>", "<params>", "<tool-calls>", "<b>", "<div>"]) {
      expect({ s, type: scanTag(s, 0, true).type }).toEqual({ s, type: "none" });
    }
  });

  test("non-ASCII letters never fold to ASCII", () => {
    // U+017F (long s) and U+0130 (dotted I) upper-case to ASCII letters in full Unicode folding.
    expect(scanTag("<ſvcml|invoke name=\"a\">", 0, true).type).toBe("none");
    expect(scanTag("<İnvoke name=\"a\">", 0, true).type).toBe("none");
  });

  test("name attribute: quotes, spaces around =, case-insensitive key, entities decoded once, trimmed", () => {
    expect(tagOf('<invoke name="read_file">').name).toBe("read_file");
    expect(tagOf("<invoke NAME = ' a&amp;b ' >").name).toBe("a&b");
    expect(tagOf('<invoke xname="no">').name).toBe("");
    expect(tagOf("<invoke name=unquoted>").name).toBe("");
    expect(tagOf('<invoke id="1" name="x>y">').name).toBe("x>y");
  });

  test("self-closing tags", () => {
    expect(tagOf('<invoke name="x"/>').selfClosing).toBe(true);
    expect(tagOf('<parameter name="x" />').selfClosing).toBe(true);
    expect(tagOf('<invoke name="x">').selfClosing).toBe(false);
  });

  test("trailing pipes imply `>` before a `<` or at the end; without them a `<` means not a tag", () => {
    const s = '<|svcml|tool_calls| \n  <|svcml|invoke name="x">';
    const t = tagOf(s, 0, false);
    expect(t.end).toBe("<|svcml|tool_calls|".length);
    expect(tagOf('<|svcml|invoke| name="x">').name).toBe("x");
    expect(scanTag("<tool_calls <invoke>", 0, true).type).toBe("none");
    expect(tagOf("<|svcml|tool_calls|", 0, true).end).toBe(19);
  });

  test("partial tags are held only while they can still become a tool tag", () => {
    for (const s of ["<", "<<", "</", "<tool_ca", "<inv", "<para", "<s", "<svc", "<|svcml|", '<invoke name="a', "<svcml-"]) {
      expect({ s, type: scanTag(s, 0, false).type }).toEqual({ s, type: "partial" });
      expect({ s, type: scanTag(s, 0, true).type }).toEqual({ s, type: "none" });
    }
    for (const s of ["<b", "<div", "< b", "<tool_name", "<svg"]) expect({ s, type: scanTag(s, 0, false).type }).toEqual({ s, type: "none" });
  });

  test("a non-tag resumes at the next `<` after its leading run", () => {
    const r = scanTag("<<b> x <tool_calls>", 0, false);
    expect(r).toEqual({ type: "none", resume: 7 });
  });

  test("a candidate longer than TAG_MAX_CHARS is not a tag", () => {
    expect(scanTag(`<invoke name="${"a".repeat(2000)}">`, 0, false).type).toBe("none");
  });

  test("offsets index the original text, astral characters before the tag included", () => {
    const s = "𝄞é <｜svcml｜invoke name=\"ü\">";
    const at = s.indexOf("<");
    const t = tagOf(s, at);
    expect(s.slice(t.start, t.end)).toBe('<｜svcml｜invoke name="ü">');
    expect(t.name).toBe("ü");
  });
});

describe("the canonical fast path", () => {
  // The spellings the prompt teaches are matched with startsWith; each must read exactly as the general
  // scanner reads it, and near variants must fall through to the general scanner unchanged.
  const tags = [
    "<|svcml|tool_calls>", "</|svcml|tool_calls>", "<|svcml|invoke name=\"read_file\">", "</|svcml|invoke>",
    "<|svcml|parameter name=\"path\">", "</|svcml|parameter>", "<|svcml|invoke name=\" padded \">",
    "<|svcml|invoke name=\"a&amp;b\">", "<|svcml|invoke name=\"a>b\">", "<|svcml|invoke name=\"a<b\">",
    "<|svcml|invoke name=\"it's\">", "<|svcml|invoke name=\"\">", "<|svcml|invoke name=\"x\"/>",
    "<|svcml|invoke name=\"x\" >", "<|svcml|invoke  name=\"x\">", "<|svcml|parameter name='x'>",
    "<|svcml|parameter name=\"x\" extra=\"1\">", "<|svcml|tool_calls/>", "<|svcml|tool_callsx>",
    "<|svcml|invokes name=\"x\">", "<|svcml|parameters>", "</|svcml|parameter >", "</|svcml|invoke|>",
    "<|SVCML|invoke name=\"x\">", `<|svcml|invoke name="${"n".repeat(1010)}">`, `<|svcml|invoke name="${"n".repeat(1030)}">`,
  ];
  test("reads every canonical tag and near variant as the general scanner does", () => {
    for (const tag of tags) {
      for (const text of [tag, `${tag} after`, `${tag}<|svcml|`]) {
        for (const final of [true, false]) {
          expect({ text, r: scanTag(text, 0, final) }).toEqual({ text, r: scanAnyTag(text, 0, final) });
        }
      }
      // Every prefix (a tag split by the stream) too.
      for (let k = 1; k < tag.length; k++) {
        const part = tag.slice(0, k);
        expect({ part, r: scanTag(part, 0, false) }).toEqual({ part, r: scanAnyTag(part, 0, false) });
      }
    }
  });
});
