// The detector stage (core-to-turn.ts coreToTurnSource) against the two steps it joins, coreReduce → assembleTurn: the same
// TurnEvents, event for event, for every patch-reducer vector and every svcml stream case, with the frames handed
// on one at a time and in random batches (the core client hands on what one read completed as a batch).
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../helpers/vectors";
import { runTransform } from "../helpers/chunking";
import { SseDecoder } from "../../src/core/sse";
import type { CoreFrame } from "../../src/core/completion";
import type { ReduceOptions } from "../../src/pipeline/core-reduce";
import { newReport } from "../../src/pipeline/turn-assembler";
import { assembleTurn, assemblerOptions, coreReduce, coreToTurn } from "../helpers/stages";
import type { TurnEvent } from "../../src/pipeline/types";
import { bodyOfRounds } from "./core-body";

function framesOf(body: Uint8Array): CoreFrame[] {
  const d = new SseDecoder();
  return [...d.push(body), ...d.end()];
}

/** Frames in batches of 1–9, chosen by a seeded generator. */
function batches(frames: CoreFrame[], seed: number): CoreFrame[][] {
  let x = seed;
  const out: CoreFrame[][] = [];
  for (let i = 0; i < frames.length; ) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = 1 + (x % 9);
    out.push(frames.slice(i, i + n));
    i += n;
  }
  return out;
}

/**
 * Runs both on fresh frames from `input()`: the reducer applies core's patches to the parsed JSON it is handed
 * (a frame's JSON is parsed once and kept on the frame), so one set of frames serves one run.
 */
async function both(input: () => (CoreFrame | CoreFrame[])[], reduce: ReduceOptions, tools: string[], exposeThinking: boolean) {
  const separateReport = newReport();
  const separate = await runTransform(wrap(coreReduce(reduce), assembleTurn(assemblerOptions(tools, exposeThinking), separateReport)), input());
  const fusedReport = newReport();
  const fused = await runTransform(coreToTurn(reduce, assemblerOptions(tools, exposeThinking), fusedReport), input());
  return { separate, fused, separateReport, fusedReport };
}

/** Two TransformStreams as one, the way the pipeline chained them before the fusion. */
function wrap<A, B, C>(first: TransformStream<A, B>, second: TransformStream<B, C>): TransformStream<A, C> {
  return { writable: first.writable, readable: first.readable.pipeThrough(second) } as TransformStream<A, C>;
}

const text = (evs: TurnEvent[]) => evs.map((e) => (e.type === "text" ? e.text : "")).join("");

describe("coreToTurn = coreReduce → assembleTurn", () => {
  const reduceOpts: ReduceOptions = { thinkingEnabled: true, stripReferenceMarkers: true };
  for (const v of loadVectors("patch-reducer.json").vectors as any[]) {
    const frames = () => framesOf(bodyOfRounds(v.rounds ?? [v.messages]));
    const inputs: [string, () => (CoreFrame | CoreFrame[])[]][] = [
      ["one frame at a time", frames],
      ["random batches", () => batches(frames(), 7)],
      ["one batch", () => [frames()]],
    ];
    for (const [label, input] of inputs) {
      test(`${v.id} — ${label}`, async () => {
        for (const expose of [true, false]) {
          const r = await both(input, reduceOpts, [], expose);
          expect(r.fused).toEqual(r.separate);
          expect(r.fusedReport).toEqual(r.separateReport);
        }
      });
    }
  }

  for (const c of (loadVectors("svcml-stream-cases.json") as any).cases as any[]) {
    // Each chunk of the case is one token of core's answer.
    const messages = [
      { v: { response: { status: "WIP", fragments: [{ id: 1, type: "RESPONSE", content: "" }] } } },
      ...c.chunks.map((chunk: string) => ({ p: "response/fragments/-1/content", o: "APPEND", v: chunk })),
      { p: "response/status", o: "SET", v: "FINISHED" },
    ];
    const frames = () => framesOf(bodyOfRounds([messages]));
    test(`svcml ${c.name} — one frame at a time and in random batches`, async () => {
      for (const input of [frames, () => batches(frames(), 3), () => batches(frames(), 11)]) {
        const r = await both(input, reduceOpts, c.tools ?? [], false);
        expect(r.fused).toEqual(r.separate);
        expect(r.fusedReport).toEqual(r.separateReport);
        expect(r.fused.some((e) => e.type === "finish" || e.type === "error")).toBe(true);
      }
    });
  }

  test("a long answer of single-token appends arrives whole (the append fast path)", async () => {
    const words = Array.from({ length: 3000 }, (_, i) => ` w${i}`);
    const messages = [
      { v: { response: { status: "WIP", fragments: [{ id: 1, type: "RESPONSE", content: "" }] } } },
      ...words.map((w) => ({ p: "response/fragments/-1/content", o: "APPEND", v: w })),
      { p: "response/status", o: "SET", v: "FINISHED" },
    ];
    const r = await both(() => batches(framesOf(bodyOfRounds([messages])), 5), reduceOpts, [], false);
    expect(text(r.fused)).toBe(words.join(""));
    expect(r.fused).toEqual(r.separate);
  });
});
