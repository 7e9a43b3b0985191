// Long inputs through the detector in small chunks: the shapes whose buffer bookkeeping (consumed text
// dropped inside a block, comments and CDATA sections resumed mid-way, whitespace read once) must not change
// a single output character compared with the same text pushed whole. Timing is left to bench/detector.ts.
import { describe, expect, test } from "bun:test";
import { randomSplits } from "../../helpers/chunking";
import { SvcmlDetector } from "../../../src/pipeline/svcml/detector";
import { collectEvents } from "../../../src/pipeline/svcml/parse";

const filler = (n: number) => {
  // Varied text with newlines, so the fence trackers and line logic see something real.
  const line = "let x = a[i] + b; // not a tag: a < b, c > d\n";
  return line.repeat(Math.ceil(n / line.length)).slice(0, n);
};
const LONG = 60_000;

function run(text: string, chunks: string[], dropConsumedAfter?: number) {
  const d = new SvcmlDetector({ dropConsumedAfter, newId: counter() });
  const events = chunks.flatMap((c) => d.push(c));
  events.push(...d.flush());
  const r = collectEvents(events);
  return { visible: r.visibleText, calls: r.calls.map((c) => ({ name: c.name, arguments: c.arguments, finished: c.finished })), unfinished: d.hasUnfinished };
}

function counter() {
  let n = 0;
  return () => `call_${n++}`;
}

function every16(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += 16) out.push(s.slice(i, i + 16));
  return out;
}

const block = (body: string, tail = "</|svcml|parameter>\n</|svcml|invoke>\n</|svcml|tool_calls>") =>
  `Before.\n<|svcml|tool_calls>\n<|svcml|invoke name="write">\n<|svcml|parameter name="path">a.txt</|svcml|parameter>\n<|svcml|parameter name="content">${body}${tail}\nAfter.`;

const cases: { name: string; text: string; check?: (r: ReturnType<typeof run>) => void }[] = [
  {
    name: "a long plain parameter body",
    text: block(filler(LONG)),
    check: (r) => expect(JSON.parse(r.calls[0]!.arguments).content).toBe(filler(LONG).trim()),
  },
  {
    name: "a long CDATA value",
    text: block(`<![CDATA[${filler(LONG)}]]>`),
    check: (r) => expect(JSON.parse(r.calls[0]!.arguments).content).toBe(filler(LONG)),
  },
  {
    name: "a long comment inside a parameter body",
    text: block(`abc <!-- ${filler(LONG)} --> def`),
    check: (r) => expect(r.calls).toHaveLength(1),
  },
  {
    name: "a long CDATA section in the middle of a plain body",
    text: block(`abc <![CDATA[${filler(LONG)}]]> def`),
    check: (r) => expect(r.calls).toHaveLength(1),
  },
  {
    name: "a long JSON invoke body",
    text: `<|svcml|tool_calls>\n<|svcml|invoke name="w">{"content": ${JSON.stringify(filler(LONG))}}</|svcml|invoke>\n</|svcml|tool_calls>`,
    check: (r) => expect(JSON.parse(r.calls[0]!.arguments).content).toBe(filler(LONG)),
  },
  {
    name: "a block left open at the end, no call announced (its text is released)",
    text: `Head <|svcml|tool_calls>\n<|svcml|invoke name="w">\n<|svcml|parameter name="content">${filler(LONG)}`,
    check: (r) => expect(r.visible.length).toBeGreaterThan(LONG),
  },
  {
    name: "a block left open at the end after an announced call (unfinished)",
    text: block(filler(LONG), ""),
    check: (r) => expect(r.unfinished).toBe(true),
  },
  {
    name: "a CDATA value whose first ]]> sits in a fence that never closes",
    text: block(`<![CDATA[\n\`\`\`\nx ]]> y\n${filler(LONG)}`, ""),
  },
  {
    name: "whitespace flood after an invoke tag",
    text: `<|svcml|tool_calls>\n<|svcml|invoke name="w">${" ".repeat(LONG)}<|svcml|parameter name="a">1</|svcml|parameter></|svcml|invoke></|svcml|tool_calls>`,
    check: (r) => expect(JSON.parse(r.calls[0]!.arguments)).toEqual({ a: 1 }),
  },
  {
    name: "whitespace flood before a parameter value",
    text: block(`${" ".repeat(LONG)}<![CDATA[v]]>`),
    check: (r) => expect(JSON.parse(r.calls[0]!.arguments).content).toBe("v"),
  },
  {
    name: "whitespace flood after a bare invoke (held back only up to the limit)",
    text: `<invoke name="w"><parameter name="a">1</parameter></invoke>${" ".repeat(LONG * 2)}</tool_calls> tail`,
  },
  {
    name: "a bare invoke with some whitespace before its closing wrapper is still a call",
    text: `<invoke name="w"><parameter name="a">1</parameter></invoke>${" ".repeat(5000)}</tool_calls> tail`,
    check: (r) => expect(r.calls).toHaveLength(1),
  },
  {
    name: "a bare invoke whose body is longer than the hold limit is text",
    text: `<invoke name="w"><parameter name="a">${filler(70_000)}</parameter></invoke></tool_calls> tail`,
    check: (r) => expect(r.calls).toHaveLength(0),
  },
  {
    name: "a long comment in prose",
    text: `Intro <!-- ${filler(LONG)} --> outro`,
    check: (r) => expect(r.visible).toBe(`Intro <!-- ${filler(LONG)} --> outro`),
  },
  {
    name: "many blocks, with pushes that end between a wrapper and its invoke",
    text: `Let me check.\n<|svcml|tool_calls>\n  <|svcml|invoke name="r">\n<|svcml|parameter name="a">1</|svcml|parameter></|svcml|invoke></|svcml|tool_calls>\n`.repeat(300),
    check: (r) => expect(r.calls).toHaveLength(300),
  },
  {
    name: "stray closing tags on one long line of prose",
    text: "</invoke> x ".repeat(LONG / 10),
    check: (r) => expect(r.visible).toBe("</invoke> x ".repeat(LONG / 10)),
  },
];

/** Chunks that cut every block of `unit` at the same offset (the cut of the previous shape's bug). */
function cutAt(text: string, unit: number, offset: number): string[] {
  const out = [text.slice(0, offset)];
  for (let i = offset; i < text.length; i += unit) out.push(text.slice(i, i + unit));
  return out;
}

describe("long inputs: the scan buffer stays bounded", () => {
  // Hold-back is bounded (svcml-and-prompts.md §2.7 rule 5) and no push may copy the input so far: whatever
  // the shape, the buffer holds at most a few chunks, a tag and the drop threshold.
  for (const c of cases) {
    test(c.name, () => {
      const chunkings = [every16(c.text), randomSplits(c.text, 9, 200)];
      if (c.name.startsWith("many blocks")) for (const off of [20, 33, 41, 60]) chunkings.push(cutAt(c.text, c.text.length / 300, off));
      for (const chunks of chunkings) {
        const d = new SvcmlDetector();
        let max = 0;
        for (const ch of chunks) {
          d.push(ch);
          max = Math.max(max, d.bufferedChars);
        }
        // The bare-invoke hold (65536) is the one region the spec lets grow that far.
        expect(max).toBeLessThan(c.name.includes("bare invoke") ? 70_000 : 2_500);
      }
    });
  }
});

describe("long inputs: chunking never changes the result", () => {
  for (const c of cases) {
    test(c.name, () => {
      const whole = run(c.text, [c.text]);
      c.check?.(whole);
      for (const drop of [undefined, 0, 100]) {
        expect(run(c.text, every16(c.text), drop)).toEqual(whole);
        expect(run(c.text, randomSplits(c.text, 5, 300), drop)).toEqual(whole);
      }
    });
  }
});
