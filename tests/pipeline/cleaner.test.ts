// The visible-output cleaner (svcml-and-prompts.md §1.13): markers in both spellings, think tags, empty json
// fences and optional reference markers are removed whatever the chunking, and hold-back stays bounded.
import { describe, expect, test } from "bun:test";
import { CLEANER_HOLD_MAX, VisibleCleaner, type CleanerOptions } from "../../src/pipeline/cleaner";
import { visibleCleanerStream } from "../helpers/text-stages";
import { ALL_MARKERS, MARKER_END_THINKING, MARKER_EOS, asciiSpelling } from "../../src/prompt/markers";
import { loadVectors } from "../helpers/vectors";
import { onePerUnit, randomSplits, runTransform } from "../helpers/chunking";
import { parseWholeText } from "../../src/pipeline/svcml/parse";

function clean(chunks: string[], opts: CleanerOptions = {}): string {
  const c = new VisibleCleaner(opts);
  return chunks.map((ch) => c.push(ch)).join("") + c.flush();
}

/** Runs the input whole, one character at a time and in several random splits; all must agree. */
function cleanEverySplit(input: string, opts: CleanerOptions = {}): string {
  const whole = clean([input], opts);
  expect(clean(onePerUnit(input), opts)).toBe(whole);
  for (const seed of [1, 2, 3, 11, 42]) expect(clean(randomSplits(input, seed, 7), opts)).toBe(whole);
  return whole;
}

describe("VisibleCleaner", () => {
  test("removes every role marker in the fullwidth and in the ASCII spelling", () => {
    for (const m of ALL_MARKERS) {
      expect(cleanEverySplit(`a${m}b`)).toBe("ab");
      expect(cleanEverySplit(`a${asciiSpelling(m)}b`)).toBe("ab");
    }
  });

  test("removes think tags but keeps the text between and after them", () => {
    expect(cleanEverySplit("A<think>x</think>B")).toBe("AxB");
  });

  test("removes an empty json fence, keeps a fence with content", () => {
    expect(cleanEverySplit("before ```json\n \n``` after")).toBe("before  after");
    expect(cleanEverySplit("```json\n{\"a\":1}\n```")).toBe("```json\n{\"a\":1}\n```");
  });

  test("strips [reference:N] only when enabled, case-insensitively and with spaces after the colon", () => {
    const input = "see [reference:3] and [Reference: 12]. [reference:] [ref] [reference:x]";
    expect(cleanEverySplit(input, { stripReferenceMarkers: true })).toBe("see  and . [reference:] [ref] [reference:x]");
    expect(cleanEverySplit(input)).toBe(input);
  });

  test("leaves tool markup and other XML alone", () => {
    const input = "<|svcml|tool_calls><b>bold</b> <thinking> <| not a marker |> a < b";
    expect(cleanEverySplit(input)).toBe(input);
  });

  test("a marker split across chunks is removed; the text before it is released at once", () => {
    const c = new VisibleCleaner();
    expect(c.push("Hello <｜end▁of")).toBe("Hello ");
    expect(c.push("▁sentence｜> world")).toBe(" world");
    expect(c.flush()).toBe("");
  });

  test("a tail that turns out not to be a marker is released in full", () => {
    const c = new VisibleCleaner();
    expect(c.push("x <|Us")).toBe("x ");
    expect(c.push("ual")).toBe("<|Usual");
    expect(c.push("<thi")).toBe("");
    expect(c.flush()).toBe("<thi");
  });

  test("hold-back never exceeds the longest pattern", () => {
    const c = new VisibleCleaner({ stripReferenceMarkers: true });
    let out = "";
    let fed = 0;
    const input = `${"```json" + " ".repeat(100)}\`\`\`${"[reference:" + " ".repeat(100)}1] end`;
    for (const ch of onePerUnit(input)) {
      out += c.push(ch);
      fed++;
      expect(input.startsWith(out)).toBe(true);
      expect(fed - out.length).toBeLessThanOrEqual(CLEANER_HOLD_MAX);
    }
    // Whitespace runs longer than the bound are not waited for: everything is text.
    out += c.flush();
    expect(out).toBe(input);
  });

  test("the stream stage cleans across chunk boundaries", async () => {
    const out = await runTransform(visibleCleanerStream(), ["a<｜end▁of", "▁thinking｜>b<", "/think>c"]);
    expect(out.join("")).toBe("abc");
    expect(out.join("")).not.toContain(MARKER_END_THINKING);
  });

  test("vector: detector output then cleaner gives cleaned_text", () => {
    const cases = loadVectors("svcml-cases.json").cases as any[];
    const withCleaned = cases.filter((c) => c.expect.cleaned_text !== undefined);
    expect(withCleaned.length).toBeGreaterThan(0);
    for (const c of withCleaned) {
      const visible = parseWholeText(c.input_text).visibleText;
      expect(visible).toBe(c.expect.visible_text);
      expect(cleanEverySplit(visible)).toBe(c.expect.cleaned_text);
    }
  });

  test("linear: a long text full of near-miss triggers is cleaned quickly and unchanged", () => {
    const input = "<|Use [refer ``js ".repeat(20000) + MARKER_EOS;
    const out = clean(randomSplits(input, 5, 64), { stripReferenceMarkers: true });
    expect(out).toBe("<|Use [refer ``js ".repeat(20000));
  });
});
