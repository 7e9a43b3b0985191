// The fence tracker (svcml-and-prompts.md §1.3) must not depend on how its input is cut into ranges, and the
// newline search cache its trackers share must answer exactly what a plain search answers.
import { describe, expect, test } from "bun:test";
import { FenceTracker, NewlineCache } from "../../../src/pipeline/svcml/fence";
import { rng } from "../../helpers/chunking";

/** The tracker's state after each character, fed one at a time. */
function statesByChar(text: string): boolean[] {
  const f = new FenceTracker();
  return [...text].map((ch) => {
    f.feed(ch);
    return f.wouldBeInFence("x");
  });
}

describe("FenceTracker", () => {
  const texts = [
    "plain\n```\ncode ]]> here\n```\nafter",
    "```ts\nx\n~~~\nstill\n```\nout",
    "  ```\nindented opener\n  ```x\nnot a closer\n````\nlonger closer",
    "no newline at all ``` anywhere in this line",
    "\n\n```\n\n",
  ];

  test("ranges of one buffer give what one character at a time gives", () => {
    for (const text of texts) {
      const want = statesByChar(text);
      for (const seed of [1, 2, 3]) {
        const next = rng(seed);
        const lines = new NewlineCache();
        const f = new FenceTracker(lines);
        const got: boolean[] = [];
        const expected: boolean[] = [];
        let i = 0;
        while (i < text.length) {
          const to = Math.min(text.length, i + 1 + Math.floor(next() * 6));
          // A range of the whole buffer, as the detector feeds it; the state after it is the state after its last character.
          f.feedRange(text, i, to);
          got.push(f.wouldBeInFence("x"));
          expected.push(want[to - 1]!);
          i = to;
        }
        expect({ text, seed, got }).toEqual({ text, seed, got: expected });
      }
    }
  });

  test("a range fed whole ends in the same state as fed by characters", () => {
    for (const text of texts) {
      for (let cut = 0; cut <= text.length; cut++) {
        const a = new FenceTracker();
        a.feedRange(text, 0, cut);
        const b = new FenceTracker();
        for (const ch of text.slice(0, cut)) b.feed(ch);
        expect({ text, cut, s: a.wouldBeInFence("]") }).toEqual({ text, cut, s: b.wouldBeInFence("]") });
      }
    }
  });
});

describe("NewlineCache", () => {
  const naive = (s: string, from: number, to: number) => {
    const k = s.indexOf("\n", from);
    return k >= 0 && k < to ? k : -1;
  };

  test("answers what a plain search answers, for interleaved texts and ranges in any order", () => {
    const next = rng(5);
    const texts = ["a\nbb\n\nccc\n", "no newline here at all", "x".repeat(100) + "\n" + "y".repeat(100), "\n"];
    const cache = new NewlineCache();
    for (let k = 0; k < 5000; k++) {
      const s = texts[Math.floor(next() * texts.length)]!;
      const from = Math.floor(next() * (s.length + 1));
      const to = from + Math.floor(next() * (s.length + 1 - from));
      expect({ s, from, to, at: cache.within(s, from, to) }).toEqual({ s, from, to, at: naive(s, from, to) });
    }
  });
});
