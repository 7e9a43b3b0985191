// Conformance of the svcml detector with vectors/svcml-cases.json and svcml-stream-cases.json under every
// chunking: whole, one code point at a time, and seeded random splits (chunking invariance, §2.2 rule 6).
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { perCodePoint, randomSplits } from "../../helpers/chunking";
import { SvcmlDetector, type DetectorEvent } from "../../../src/pipeline/svcml/detector";
import { schemaLookup } from "../../../src/pipeline/svcml/coerce";
import { collectEvents, thinkingFallback } from "../../../src/pipeline/svcml/parse";

const cases = loadVectors("svcml-cases.json").cases as any[];
const streamCases = loadVectors("svcml-stream-cases.json").cases as any[];

function schemasOf(c: any) {
  return c.tool_schemas ? schemaLookup(Object.entries(c.tool_schemas).map(([name, parameters]) => ({ name, parameters }))) : undefined;
}

function runChunks(c: any, chunks: string[], dropConsumedAfter?: number) {
  const det = new SvcmlDetector({ tools: schemasOf(c), dropConsumedAfter });
  const perChunk: DetectorEvent[][] = chunks.map((ch) => det.push(ch));
  const tail = det.flush();
  return { det, perChunk, tail, all: [...perChunk.flat(), ...tail] };
}

function checkCalls(calls: ReturnType<typeof collectEvents>["calls"], want: any[]) {
  expect(calls.map((c) => c.name)).toEqual(want.map((w) => w.name));
  want.forEach((w, i) => {
    if (w.unfinished) {
      expect(calls[i]!.finished).toBe(false);
      return;
    }
    expect(calls[i]!.finished).toBe(true);
    expect(JSON.parse(calls[i]!.arguments)).toEqual(w.normalized_arguments ?? w.arguments);
  });
}

const chunkings: [string, (s: string) => string[]][] = [
  ["whole", (s) => [s]],
  ["one code point at a time", perCodePoint],
  ["random splits (seed 1)", (s) => randomSplits(s, 1)],
  ["random splits (seed 7)", (s) => randomSplits(s, 7, 5)],
  ["random splits (seed 23)", (s) => randomSplits(s, 23, 3)],
  ["random splits (seed 99)", (s) => randomSplits(s, 99, 40)],
];

/** Complete members in an arguments prefix: fragments always end at a member boundary (§2.5). */
function membersIn(args: string): number {
  if (!args) return 0;
  const obj = JSON.parse(args.endsWith("}") ? args : `${args}}`);
  return Object.keys(obj).length;
}

// Each suite runs twice: as the gateway runs it, and with consumed block text dropped after every push, so
// that the position bookkeeping of dropConsumed is exercised by every vector (their blocks are short).
const modes: [string, number | undefined][] = [
  ["", undefined],
  [" (dropping consumed text at once)", 0],
];

for (const [mode, drop] of modes) {
describe(`svcml-cases.json${mode}`, () => {
  for (const c of cases) {
    for (const [label, split] of chunkings) {
      test(`${c.name} — ${label}`, () => {
        if (c.thinking_text !== undefined) {
          const r = collectEvents(runChunks(c, split(c.input_text), drop).all);
          expect(r.visibleText).toBe(c.expect.visible_text);
          if (r.calls.length === 0 && !r.visibleText.trim()) {
            const fallback = thinkingFallback(c.thinking_text, { tools: schemasOf(c) });
            expect(fallback.map((f) => ({ name: f.name, arguments: JSON.parse(f.arguments) }))).toEqual(
              c.expect.tool_calls.map((w: any) => ({ name: w.name, arguments: w.normalized_arguments ?? w.arguments })),
            );
            return;
          }
          checkCalls(r.calls, c.expect.tool_calls);
          return;
        }
        const r = collectEvents(runChunks(c, split(c.input_text), drop).all);
        expect(r.visibleText).toBe(c.expect.visible_text);
        checkCalls(r.calls, c.expect.tool_calls);
      });
    }
  }
});

/** Merged text runs and calls in output order (svcml-and-prompts.md §5.2). */
function sequenceOf(events: DetectorEvent[]): ({ text: string } | { call: number })[] {
  const seq: ({ text: string } | { call: number })[] = [];
  for (const e of events) {
    if (e.type === "text") {
      if (!e.text) continue;
      const last = seq[seq.length - 1];
      if (last && "text" in last) last.text += e.text;
      else seq.push({ text: e.text });
    } else if (e.type === "call_start") seq.push({ call: e.index });
  }
  return seq;
}

describe(`svcml-stream-cases.json${mode}`, () => {
  for (const c of streamCases) {
    test(`${c.name} — as given`, () => {
      const r = runChunks(c, c.chunks, drop);
      const all = collectEvents(r.all);
      expect(all.visibleText).toBe(c.expect.visible_text);
      checkCalls(all.calls, c.expect.tool_calls);
      if (c.expect.sequence) expect(sequenceOf(r.all)).toEqual(c.expect.sequence);
      if (c.expect.finish === "length") expect(r.det.hasUnfinished).toBe(true);
      const stages = [...r.perChunk, r.tail];
      let text = "";
      let started = 0;
      let finished = 0;
      const args: string[] = [];
      stages.forEach((events, k) => {
        for (const e of events) {
          if (e.type === "text") text += e.text;
          if (e.type === "call_start") started++;
          if (e.type === "call_end") finished++;
          if (e.type === "call_args") args[e.index] = (args[e.index] ?? "") + e.fragment;
        }
        const members: number[][] | undefined = c.expect.members_emitted_at_least;
        members?.[k]?.forEach((atLeast, call) => expect(membersIn(args[call] ?? "")).toBeGreaterThanOrEqual(atLeast));
        if (c.expect.released_text_after_chunk) expect(text).toBe(c.expect.released_text_after_chunk[k]);
        if (c.expect.calls_started_at_least) expect(started).toBeGreaterThanOrEqual(c.expect.calls_started_at_least[k]);
        if (c.expect.calls_started_at_most) expect(started).toBeLessThanOrEqual(c.expect.calls_started_at_most[k]);
        if (c.expect.calls_finished_at_least) expect(finished).toBeGreaterThanOrEqual(c.expect.calls_finished_at_least[k]);
      });
    });
    for (const [label, split] of chunkings.slice(1)) {
      test(`${c.name} — re-split ${label}`, () => {
        const whole = (c.chunks as string[]).join("");
        const r = runChunks(c, split(whole), drop);
        const all = collectEvents(r.all);
        expect(all.visibleText).toBe(c.expect.visible_text);
        checkCalls(all.calls, c.expect.tool_calls);
        if (c.expect.sequence) expect(sequenceOf(r.all)).toEqual(c.expect.sequence);
      });
    }
  }
});
}
