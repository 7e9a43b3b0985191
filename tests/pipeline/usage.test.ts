// The local token estimate (token-estimate.json) and the usage mapping of D9.7 / core-upstream §7.12.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { estimateTokens } from "../../src/pipeline/token-estimate";
import { computeUsage } from "../../src/pipeline/usage";

describe("token-estimate.json", () => {
  for (const v of loadVectors("token-estimate.json").vectors as any[]) test(`estimate ${JSON.stringify(v.text)} = ${v.tokens}`, () => expect(estimateTokens(v.text)).toBe(v.tokens));

  test("code points, not UTF-16 units: an astral character counts once as non-ASCII", () => {
    // n = 3 code points → floor(37/13) = 2; counting surrogate halves (n = 6) would give 5.
    expect(estimateTokens("😀😀😀")).toBe(2);
    expect(estimateTokens("a".repeat(400))).toBe(100);
  });

  test("the all-ASCII shortcut gives what counting every code point gives", () => {
    // The rule written out, character by character (D9.7).
    const reference = (text: string) => {
      if (!text) return 0;
      let a = 0;
      let n = 0;
      for (const ch of text) if (ch.codePointAt(0)! < 128) a++;
      else n++;
      return Math.max(1, Math.floor(a / 4) + Math.floor((n * 10 + 7) / 13));
    };
    let seed = 7;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % k;
    const alphabet = ["a", " ", "\n", "\u007f", "\u0000", "é", "中", "😀", "\ud800", "\udc00"];
    for (let i = 0; i < 500; i++) {
      const ascii = rnd(3) > 0;
      const text = Array.from({ length: rnd(40) }, () => alphabet[ascii ? rnd(5) : rnd(alphabet.length)]).join("");
      expect(estimateTokens(text)).toBe(reference(text));
    }
    expect(estimateTokens("x".repeat(300_000) + "é")).toBe(reference("x".repeat(300_000) + "é"));
  });
});

describe("computeUsage (D9.7)", () => {
  test("core's total is the turn's total: prompt capped by it, completion the rest, reasoning capped by completion", () => {
    expect(computeUsage({ upstreamTotal: 100, promptEstimate: 30, reasoningText: "a".repeat(400), answerText: "x" })).toEqual({
      promptTokens: 30,
      completionTokens: 70,
      reasoningTokens: 70,
      totalTokens: 100,
    });
    expect(computeUsage({ upstreamTotal: 20, promptEstimate: 30, reasoningText: "abcd", answerText: "x" })).toEqual({
      promptTokens: 20,
      completionTokens: 0,
      reasoningTokens: 0,
      totalTokens: 20,
    });
    expect(computeUsage({ upstreamTotal: 2551, promptEstimate: 1000, reasoningText: "abcdefgh", answerText: "x" }).reasoningTokens).toBe(2);
  });

  test("without core's figure every number is the local estimate; output counts thinking plus visible text", () => {
    expect(computeUsage({ promptEstimate: 5, reasoningText: "abcd", answerText: "abcdefgh" })).toEqual({ promptTokens: 5, completionTokens: 3, reasoningTokens: 1, totalTokens: 8 });
    expect(computeUsage({ promptEstimate: 0, reasoningText: "", answerText: "" })).toEqual({ promptTokens: 0, completionTokens: 0, reasoningTokens: 0, totalTokens: 0 });
  });
});
