// The one-pass reader for complete canonical blocks (canonical-block.ts) must change nothing but speed: the
// detector gives the same events push for push with it and without it (tag-by-tag reading), on every vector,
// on blocks written to sit right at the edge of what the reader accepts, and under every chunking.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { randomSplits } from "../../helpers/chunking";
import { SvcmlDetector, type DetectorEvent, type DetectorOptions } from "../../../src/pipeline/svcml/detector";
import { readCanonicalBlock } from "../../../src/pipeline/svcml/canonical-block";
import { NewlineCache } from "../../../src/pipeline/svcml/fence";
import { schemaLookup } from "../../../src/pipeline/svcml/coerce";

const W = "<|svcml|tool_calls>";
const WC = "</|svcml|tool_calls>";
const inv = (name: string, body: string) => `<|svcml|invoke name="${name}">${body}</|svcml|invoke>`;
const par = (name: string, body: string) => `<|svcml|parameter name="${name}">${body}</|svcml|parameter>`;
const cd = (s: string) => `<![CDATA[${s}]]>`;
const block = (...invokes: string[]) => `${W}\n${invokes.join("\n")}\n${WC}`;

/** Events per push, with ids from a counter so that both runs can be compared exactly. */
function run(chunks: string[], opts: DetectorOptions, wholeBlocks: boolean): DetectorEvent[][] {
  let n = 0;
  const det = new SvcmlDetector({ ...opts, wholeBlocks, newId: () => `call_${n++}` });
  const out = chunks.map((c) => det.push(c));
  out.push(det.flush());
  return out;
}

const chunkings: [string, (s: string) => string[]][] = [
  ["whole", (s) => [s]],
  ["random splits (seed 3)", (s) => randomSplits(s, 3, 300)],
  ["random splits (seed 11)", (s) => randomSplits(s, 11, 40)],
];

const schemas = schemaLookup([{ name: "t", parameters: { type: "object", properties: { n: { type: "string" }, list: { type: "string" } } } }]);
const optionSets: [string, DetectorOptions][] = [
  ["default", {}],
  ["suppress", { suppress: true }],
  ["tools", { tools: schemas }],
];

function expectSame(input: string, given?: string[]): void {
  const splits = chunkings.map(([, split]) => split(input));
  if (given) splits.push(given);
  for (const chunks of splits) {
    for (const [, opts] of optionSets) expect(run(chunks, opts, true)).toEqual(run(chunks, opts, false));
  }
}

describe("same events with and without the one-pass reader", () => {
  for (const file of ["svcml-cases.json", "svcml-stream-cases.json"]) {
    test(`every input of ${file}`, () => {
      // Stream cases come in chunks of their own: those, and the joined text under every chunking.
      for (const c of loadVectors(file).cases as any[]) expectSame(c.input_text ?? c.chunks.join(""), c.chunks);
    });
  }

  const edges: [string, string][] = [
    ["two invokes, CDATA and plain values", `Before.\n${block(inv("a", par("path", cd("src/x.ts")) + par("limit", "200")), inv("b", par("q", cd("x"))))}\nAfter.`],
    ["a repeated parameter becomes an array", block(inv("t", par("list", "1") + par("list", "2") + par("n", "3")))],
    ["a name repeated later is dropped", block(inv("t", par("a", "1") + par("b", "2") + par("a", "3")))],
    ["empty values: the call is announced late or dropped", block(inv("t", par("a", "") + par("b", cd(" ")))) + block(inv("t", par("a", "") + par("b", "x")))],
    ["structured values", block(inv("t", par("obj", cd('{"k": [1, 2]}')) + par("xml", "<a>1</a>") + par("list", cd("a, b")) + par("n", "7")))],
    ["keep-as-text names", block(inv("t", par("content", cd("[1, 2]")) + par("command", cd("a, b")) + par("pattern", cd("<b>"))))],
    ["entities in names and values", block(inv("t&amp;u", par("a&lt;b", "x &amp; y") + par("c", cd("&lt;"))))],
    ["a fence in a value holds ]]>", block(inv("t", par("a", cd("```\nx]]>y\n```\n")) + par("b", "1")))],
    ["a fence in a value that closes before ]]>", block(inv("t", par("a", cd("```\ncode\n```\ndone"))))],
    ["two CDATA sections joined", block(inv("t", par("a", `${cd("x]]")}${cd(">y")}`)))],
    ["text after a CDATA section", block(inv("t", par("a", `${cd("x")} tail`)))],
    ["a comment between tags", block(inv("t", `<!-- c -->${par("a", "1")}`))],
    ["text between tags", block(inv("t", `note ${par("a", "1")}`))],
    ["text between invokes", `${W}\n${inv("a", par("x", "1"))}\nand\n${inv("b", par("y", "2"))}\n${WC}`],
    ["a JSON body", block(inv("t", ' {"a": 1} '))],
    ["a nested wrapper", `${W}\n${W}\n${inv("t", par("a", "1"))}\n${WC}\n${WC}`],
    ["a plain value with <", block(inv("t", par("a", "a < b")))],
    ["an empty invoke name", block(inv("", par("a", "1")) + inv("t", par("a", "1")))],
    ["an empty parameter name", block(inv("t", par("", "1") + par("a", "2")))],
    ["an invoke without parameters", block(inv("t", "\n  "))],
    ["another spelling of the tags", `<tool_calls>\n<invoke name="t"><parameter name="a">1</parameter></invoke>\n</tool_calls>`],
    ["a canonical block closed by another spelling", `${W}\n${inv("t", par("a", "1"))}\n</tool_calls>`],
    ["a wrapper with a long gap before its invoke", `${W}${" ".repeat(1100)}${inv("t", par("a", "1"))}\n${WC}`],
    ["a wrapper mentioned in prose", `Use ${W} to start. ${block(inv("t", par("a", "1")))}`],
    ["a block inside a markdown fence", "```\n" + block(inv("t", par("a", "1"))) + "\n```\n" + block(inv("u", par("b", "2")))],
    ["a block that runs past the input", `${W}\n${inv("t", par("a", cd("unfinished")))}`],
    ["a CDATA value that never ends", `${W}\n${inv("t", par("a", "<![CDATA[never"))}\n${WC}`],
    ["a bare invoke, then a block", `${inv("t", par("a", "1"))}\n${WC}\n${block(inv("u", par("b", "2")))}`],
    ["blocks back to back without text", block(inv("a", par("x", "1"))) + block(inv("b", par("y", "2"))) + block(inv("c", par("z", "3")))],
    ["non-ASCII values and names", block(inv("ツール", par("日本", cd("é😀 ✓")) + par("n", "−1")))],
  ];
  for (const [name, input] of edges) test(name, () => expectSame(input));
});

describe("readCanonicalBlock", () => {
  const lines = () => new NewlineCache();
  test("reads a canonical block: every part where it is", () => {
    const text = `x${block(inv("read", par("path", ` ${cd("a.ts")} `) + par("limit", "20")))}y`;
    const r = readCanonicalBlock(text, 1 + W.length, lines())!;
    expect(r).not.toBeNull();
    expect(r.end).toBe(text.length - 1);
    expect(r.invokes.map((i) => i.open.name)).toEqual(["read"]);
    const [path, limit] = r.invokes[0]!.params;
    expect(text.slice(path!.valueStart, path!.valueEnd)).toBe("a.ts");
    expect(text.slice(path!.bodyStart, path!.bodyEnd)).toBe(` ${cd("a.ts")} `);
    expect(limit!.valueStart).toBe(-1);
    expect(text.slice(limit!.bodyStart, limit!.bodyEnd)).toBe("20");
    expect(text.slice(r.invokes[0]!.end - "</|svcml|invoke>".length, r.invokes[0]!.end)).toBe("</|svcml|invoke>");
  });

  test("leaves to the state machine what it does not read for certain", () => {
    const cases = [
      `${W}\n${inv("t", par("a", "1"))}`, // no closing wrapper yet
      `${W}\n${inv("t", par("a", "1"))}\n</|svcml|tool_ca`, // split closing wrapper
      `${W}\n<|svcml|invoke name="t">`, // split block
      `${W}\n${inv("t", par("a", cd("```\n]]>")))}\n${WC}`, // ]]> inside a fence
      `${W}\n${inv("t", par("a", `${cd("x")}${cd("y")}`))}\n${WC}`, // joined sections
      `${W}\n${inv("t", `<!-- -->${par("a", "1")}`)}\n${WC}`, // comment
      `${W}\n${inv("t", '{"a": 1}')}\n${WC}`, // JSON body
      `${W}\n${inv("t", par("a", "x<y"))}\n${WC}`, // `<` in a plain value
      `${W}\n<invoke name="t">${par("a", "1")}</invoke>\n${WC}`, // other spelling
      `${W}\n${inv("", par("a", "1"))}\n${WC}`, // empty name
      `${W}${" ".repeat(1025)}${inv("t", par("a", "1"))}\n${WC}`, // gap past the confirmation limit
    ];
    for (const text of cases) expect({ text, r: readCanonicalBlock(text, W.length, lines()) }).toEqual({ text, r: null });
  });
});
