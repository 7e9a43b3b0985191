// String parameters keep their source text (svcml-and-prompts.md §1.11 as amended), stream while core writes them
// (§2.5 condition S), and are written back into the history as themselves (§3.7): an agent's file write or edit
// reaches the client byte for byte, however the text looks and however core's tokens split it.
import { describe, expect, test } from "bun:test";
import { SvcmlDetector, type DetectorEvent } from "../../../src/pipeline/svcml/detector";
import { schemaLookup } from "../../../src/pipeline/svcml/coerce";
import { writeToolCalls } from "../../../src/prompt/svcml-writer";
import { randomSplits, rng } from "../../helpers/chunking";

const WRITE = { name: "Write", parameters: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } } } };
const NULLABLE = { name: "Note", parameters: { type: "object", properties: { text: { anyOf: [{ type: "string" }, { type: "null" }] }, n: { type: "integer" } } } };
const tools = schemaLookup([WRITE, NULLABLE]);

interface Run {
  events: DetectorEvent[];
  /** Events after each push (index k: after chunk k), then after the flush. */
  perChunk: DetectorEvent[][];
  args: string[];
  text: string;
}

function run(chunks: string[], opts: { wholeBlocks?: boolean; dropConsumedAfter?: number } = {}): Run {
  let n = 0;
  const d = new SvcmlDetector({ tools, newId: () => `call_${n++}`, ...opts });
  const perChunk = chunks.map((c) => d.push(c));
  perChunk.push(d.flush());
  const events = perChunk.flat();
  const args: string[] = [];
  for (const e of events) if (e.type === "call_args") args[e.index] = (args[e.index] ?? "") + e.fragment;
  const text = events.map((e) => (e.type === "text" ? e.text : "")).join("");
  return { events, perChunk, args, text };
}

const block = (content: string, spelling: "svcml" | "plain" = "svcml") => {
  const b = writeToolCalls([{ name: "Write", arguments: { file_path: "pkg/file.txt", content } }], tools);
  return spelling === "svcml" ? b : b.replaceAll("<|svcml|", "<").replaceAll("</|svcml|", "</");
};

/** Pieces that look like JSON, XML, CDATA, markup, fences, escapes and text outside the BMP. */
const PIECES = [
  "{", "}", "[1, 2, 3]", "[1,2,3]", '"', "'", "\\", "\\n", "]]>", "]]", "]", "<![CDATA[", "]]><![CDATA[", "</parameter>",
  "</|svcml|invoke>", "<tool_calls>", "```", "```json\n", "~~~", "\n", "\r\n", " ", "  ", "\t", '<div className="x"><span>hi</span></div>',
  "null", "true", "1.0", "12345678901234567890", "-0", "&amp;", "&lt;", "😀", "中文", "é", "\u00a0", "hello", '{"a": 1}', "<item>a</item>",
];

function randomString(next: () => number): string {
  const n = Math.floor(next() * 14);
  let s = "";
  for (let k = 0; k < n; k++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** Whether a fence opened in s is left open: §1.6 would then pass over the value's own closing `]]>`. */
function leavesFenceOpen(s: string): boolean {
  return s.split("\n").filter((l) => /^\s{0,3}(```|~~~)/.test(l)).length % 2 === 1;
}

function contentOf(r: Run): unknown {
  expect(r.args.length).toBe(1);
  return JSON.parse(r.args[0]!).content;
}

describe("a string parameter is its source text (§1.11)", () => {
  const fixed = [
    '{\n  "10": 1,\n  "big": 12345678901234567890,\n  "v": 1.0\n}\n',
    "[1, 2, 3]",
    '"hello"',
    "'hello'",
    '<div className="x"><span>hi</span></div>',
    "  leading and trailing whitespace \n\n",
    "42",
    "null",
    "true",
    "a]]>b",
    "x]]><![CDATA[y",
    "```md\n<![CDATA[inner]]>\n```\n",
    "😀 split surrogates 😀",
    "",
  ];
  for (const s of fixed) {
    test(`${JSON.stringify(s).slice(0, 60)}: the same text, whole, one code unit at a time and in random splits`, () => {
      for (const spelling of ["svcml", "plain"] as const) {
        const input = block(s, spelling);
        const whole = run([input]);
        expect(contentOf(whole)).toBe(s);
        for (const chunks of [input.split(""), randomSplits(input, 7), randomSplits(input, 23, 5)]) {
          const r = run(chunks);
          // Byte-identical arguments, whatever the chunking: the stream and the non-stream answer agree.
          expect(r.args).toEqual(whole.args);
          expect(r.text).toBe(whole.text);
        }
        expect(run(input.split(""), { dropConsumedAfter: 0 }).args).toEqual(whole.args);
      }
    });
  }

  test("property: 400 random strings read back exactly under every chunking", () => {
    const next = rng(2026);
    for (let k = 0; k < 400; k++) {
      const s = randomString(next);
      if (leavesFenceOpen(s)) continue;
      const input = block(s);
      const whole = run([input], { wholeBlocks: false });
      expect(contentOf(whole)).toBe(s);
      expect(run([input]).args).toEqual(whole.args);
      expect(run(randomSplits(input, k, 9)).args).toEqual(whole.args);
      expect(run(input.split("")).args).toEqual(whole.args);
    }
  });

  test("a plain body is its text with entities decoded once, trimmed; null stays null only where the schema admits it", () => {
    const plain = (tool: string, body: string) => run([`<tool_calls><invoke name="${tool}"><parameter name="${tool === "Write" ? "content" : "text"}">${body}</parameter></invoke></tool_calls>`]);
    expect(JSON.parse(plain("Write", "  [1, 2, 3] ").args[0]!).content).toBe("[1, 2, 3]");
    expect(JSON.parse(plain("Write", "&amp;lt;b&gt;").args[0]!).content).toBe("&lt;b>");
    expect(JSON.parse(plain("Write", "null").args[0]!).content).toBe("null");
    expect(plain("Note", "null").args).toEqual([]); // a call with only a null argument is all-empty (§1.5)
    const both = run(['<tool_calls><invoke name="Note"><parameter name="text">null</parameter><parameter name="n">2</parameter></invoke></tool_calls>']);
    expect(JSON.parse(both.args[0]!)).toEqual({ text: null, n: 2 });
    const cdataNull = run(['<tool_calls><invoke name="Note"><parameter name="text"><![CDATA[null]]></parameter></invoke></tool_calls>']);
    expect(JSON.parse(cdataNull.args[0]!)).toEqual({ text: "null" });
  });

  test("a same-name repeat is ignored: the first occurrence wins, plain or CDATA", () => {
    const r = run(['<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[first]]></parameter><parameter name="content">second</parameter></invoke></tool_calls>']);
    expect(JSON.parse(r.args[0]!)).toEqual({ content: "first" });
    const p = run(['<tool_calls><invoke name="Write"><parameter name="content">first</parameter><parameter name="content"><![CDATA[second]]></parameter></invoke></tool_calls>']);
    expect(JSON.parse(p.args[0]!)).toEqual({ content: "first" });
  });
});

describe("a string parameter streams while core writes it (§2.5 condition S)", () => {
  const big = Array.from({ length: 2000 }, (_, i) => `line ${i}: {"k": [${i}, 1.0]} <b>'q'</b> ]] ]]>\n`).join("");

  test("a 50 KB write: the call starts and its content flows long before core has finished the value", () => {
    const input = block(big);
    const chunks = randomSplits(input, 5, 64);
    const r = run(chunks);
    expect(contentOf(r)).toBe(big);
    const startAt = r.perChunk.findIndex((evs) => evs.some((e) => e.type === "call_start"));
    const valueEndsAt = chunks.findIndex((_, k) => chunks.slice(0, k + 1).join("").includes("]]></|svcml|parameter>\n  </|svcml|invoke>"));
    expect(startAt).toBeGreaterThanOrEqual(0);
    expect(startAt).toBeLessThan(valueEndsAt / 10);
    // Argument bytes arrive in most chunks while the value is written, not all at its end.
    const withArgs = r.perChunk.slice(startAt, valueEndsAt).filter((evs) => evs.some((e) => e.type === "call_args")).length;
    expect(withArgs).toBeGreaterThan((valueEndsAt - startAt) / 2);
    expect(r.args).toEqual(run([input]).args);
  });

  test("the pieces are always a prefix of the final value: split ]]>, rejoins, tags and surrogates at every boundary", () => {
    const tricky = "a]]]]><![CDATA[>b ]] x</parameter>y </|svcml|invoke> z 😀😀 ```\n]]>\n``` end";
    const input = block(tricky);
    const whole = run([input]);
    expect(contentOf(whole)).toBe(tricky);
    for (let cut = 1; cut < input.length; cut++) {
      const r = run([input.slice(0, cut), input.slice(cut)]);
      expect(r.args).toEqual(whole.args);
      // What went out after the first chunk is a prefix of the final arguments.
      const early = r.perChunk[0]!.filter((e) => e.type === "call_args").map((e) => (e as { fragment: string }).fragment).join("");
      expect(whole.args[0]!.startsWith(early)).toBe(true);
    }
  });

  test("a blank start does not announce the call until content is certain; the value keeps its whitespace", () => {
    const input = '<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[   \n\n  x]]></parameter></invoke></tool_calls>';
    const cut = input.indexOf("   \n") + 6;
    const r = run([input.slice(0, cut), input.slice(cut)]);
    expect(r.perChunk[0]!.some((e) => e.type === "call_start")).toBe(false);
    expect(contentOf(r)).toBe("   \n\n  x");
  });

  test("end of input inside the value: the narrow repair's value and the streamed pieces agree", () => {
    const input = '<tool_calls><invoke name="Write"><parameter name="file_path"><![CDATA[a]]></parameter><parameter name="content"><![CDATA[hello world  \n</parameter></invoke></tool_calls>';
    const whole = run([input]);
    expect(JSON.parse(whole.args[0]!)).toEqual({ file_path: "a", content: "hello world" });
    expect(run(input.split("")).args).toEqual(whole.args);
  });

  test("a value that never ends leaves an unfinished call whose streamed text is the value so far", () => {
    const input = '<tool_calls><invoke name="Write"><parameter name="content"><![CDATA[partial text that core never fin';
    const d = new SvcmlDetector({ tools, newId: () => "call_x" });
    const evs = [...d.push(input), ...d.flush()];
    expect(evs.filter((e) => e.type === "call_start")).toHaveLength(1);
    expect(evs.some((e) => e.type === "call_end")).toBe(false);
    expect(d.hasUnfinished).toBe(true);
    const args = evs.map((e) => (e.type === "call_args" ? e.fragment : "")).join("");
    expect(args.startsWith('{"content":"partial text that core never')).toBe(true);
  });

  test("suppressed tools and bare invokes never stream", () => {
    const input = block("some text");
    const d = new SvcmlDetector({ tools, suppress: true });
    expect([...d.push(input.slice(0, -40)), ...d.push(input.slice(-40)), ...d.flush()].some((e) => e.type !== "text")).toBe(false);
    const bare = '<invoke name="Write"><parameter name="content"><![CDATA[held text]]></parameter></invoke>';
    const r = run([bare.slice(0, 60), bare.slice(60)]);
    expect(r.events.some((e) => e.type === "call_start")).toBe(false);
    expect(r.text).toBe(bare);
  });
});

describe("history write-back (§3.7): a string under a string schema is written as itself", () => {
  test("a JSON-looking string goes in CDATA unquoted, and reads back as itself", () => {
    const b = writeToolCalls([{ name: "Write", arguments: JSON.stringify({ file_path: "a", content: "[1, 2, 3]" }) }], tools);
    expect(b).toContain("<![CDATA[[1, 2, 3]]]>");
    expect(JSON.parse(run([b]).args[0]!).content).toBe("[1, 2, 3]");
    // Without a schema the reader would type it, so the writer keeps the JSON-quoted form there.
    const noSchema = writeToolCalls([{ name: "Other", arguments: { content: "42" } }]);
    expect(noSchema).toContain('<![CDATA["42"]]>');
  });
});
