// The non-stream read without a stream (issue 35): drainStaged / collectStaged against the stream they replace,
// stagedStream read with `for await` / collectTurn. Same batches in the same order, the same result or error, the
// same cancels reaching the source — for stages that add, drop, error and terminate, sources that fail, and the
// whole turn pipeline (core frames → reducer → detector → the turn's taps) over the svcml vectors and hostile core
// answers (cut mid-answer, error lines, a failure frame, an aborted read), with every batching of core's bytes.
import { describe, expect, test } from "bun:test";
import type { SyncTransformer } from "../../src/pipeline/stage";
import { composeStages, drainStaged, stagedStream, type BatchSource } from "../../src/pipeline/staged-stream";
import { collectStaged, collectTurn } from "../../src/pipeline/collect-turn";
import { coreToTurnSource, coreToTurnSteps } from "../../src/pipeline/core-to-turn";
import { newReport } from "../../src/pipeline/turn-assembler";
import { turnFactsStage } from "../../src/metering/turn-facts-tap";
import { SseDecoder } from "../../src/core/sse";
import type { CoreFrame } from "../../src/core/completion";
import type { TurnEvent } from "../../src/pipeline/types";
import { loadVectors } from "../helpers/vectors";
import { randomSplits } from "../helpers/chunking";
import { bodyOfRounds } from "./core-body";
import { assemblerOptions } from "../helpers/stages";
import { dropper, tagger } from "../helpers/string-stages";
import { StagedTurn } from "../../src/turn/staged-turn";

/** `batches` one per next(), then the end (or `failWith`); records every cancel. */
function source<T>(batches: T[][], failWith?: unknown): BatchSource<T> & { cancelled: unknown[]; reads: number } {
  const queue = [...batches];
  const s = {
    cancelled: [] as unknown[],
    reads: 0,
    async next(): Promise<T[] | null> {
      s.reads++;
      if (queue.length) return queue.shift()!;
      if (failWith !== undefined) throw failWith;
      return null;
    },
    async cancel(reason?: unknown) {
      // As text: an `undefined` reason must still count as a cancel in toEqual.
      s.cancelled.push(`cancel(${String(reason)})`);
    },
  };
  return s;
}

const erring = (): SyncTransformer<string, string> => ({ transform: (x, c) => (x.includes("bad") ? c.error(new Error("stage failed")) : c.enqueue(x)) });
const throwing = (): SyncTransformer<string, string> => ({
  transform: (x, c) => {
    if (x.includes("throw")) throw new Error("stage threw");
    c.enqueue(x);
  },
});
const ending = (): SyncTransformer<string, string> => ({ transform: (x, c) => (x.includes("end") ? c.terminate() : c.enqueue(x)) });

interface Outcome<T> {
  batches: T[][];
  error?: string;
  cancelled: unknown[];
}

/** The stream read with `for await`, stopping (leaving the loop) after the batch `stop` says. */
async function viaStream<T>(batches: string[][], stages: () => SyncTransformer<any, any>[], stop: (b: T[]) => boolean, failWith?: unknown): Promise<Outcome<T>> {
  const src = source(batches, failWith);
  const out: T[][] = [];
  try {
    for await (const b of stagedStream(src, composeStages(stages())) as unknown as AsyncIterable<T[]>) {
      out.push(b);
      if (stop(b)) break;
    }
  } catch (e) {
    return { batches: out, error: String(e), cancelled: src.cancelled };
  }
  return { batches: out, cancelled: src.cancelled };
}

async function viaDrain<T>(batches: string[][], stages: () => SyncTransformer<any, any>[], stop: (b: T[]) => boolean, failWith?: unknown): Promise<Outcome<T>> {
  const src = source(batches, failWith);
  const out: T[][] = [];
  try {
    await drainStaged<string, T>(src, composeStages(stages()), (b) => {
      out.push(b);
      return stop(b);
    });
  } catch (e) {
    return { batches: out, error: String(e), cancelled: src.cancelled };
  }
  return { batches: out, cancelled: src.cancelled };
}

const items = Array.from({ length: 30 }, (_, i) => (i % 7 === 3 ? `drop${i}` : `x${i}`));
const batchings = (list: string[]): string[][][] => [[list], list.map((x) => [x]), ...[1, 2, 3].map((seed) => randomSplits(list, seed, 6).flatMap((b, i) => (i % 2 ? [b, []] : [b])))];

describe("drainStaged reads what the staged stream gives", () => {
  const chains: [string, () => SyncTransformer<any, any>[]][] = [
    ["tagger, dropper, tagger", () => [tagger("a"), dropper(), tagger("b")]],
    ["a stage that errors", () => [tagger("a"), erring()]],
    ["a stage that throws", () => [throwing(), tagger("b")]],
    ["a stage that terminates", () => [tagger("a"), ending(), tagger("b")]],
  ];
  const inputs: [string, string[]][] = [
    ["plain", items],
    ["with a bad item", [...items.slice(0, 11), "bad11", ...items.slice(11)]],
    ["with a throwing item", [...items.slice(0, 5), "throw5", ...items.slice(5)]],
    ["with an end item", [...items.slice(0, 17), "end17", ...items.slice(17)]],
  ];
  const stops: [string, (b: string[]) => boolean][] = [
    ["to its end", () => false],
    ["stopped at a batch", (b) => b.some((x) => x.includes("x13") || x.includes(":close"))],
  ];
  for (const [chainName, chain] of chains)
    for (const [inputName, list] of inputs)
      for (const [stopName, stop] of stops)
        test(`${chainName} — ${inputName} — ${stopName}`, async () => {
          for (const batching of batchings(list)) {
            for (const failWith of [undefined, new Error("source broke")]) {
              const a = await viaStream(batching, chain, stop, failWith);
              const b = await viaDrain(batching, chain, stop, failWith);
              expect(b).toEqual(a);
            }
          }
        });

  test("a stage's own output while the source is read, then the source fails: the output is read, then the error", async () => {
    // A source that answers late and then fails; a stage that emits on its own (a timer) meanwhile.
    const late = (): BatchSource<string> & { cancelled: unknown[] } => {
      const s = {
        cancelled: [] as unknown[],
        async next(): Promise<string[] | null> {
          await Bun.sleep(30);
          throw new Error("source broke late");
        },
        async cancel(reason?: unknown) {
          s.cancelled.push(`cancel(${String(reason)})`);
        },
      };
      return s;
    };
    const ticking = (): SyncTransformer<string, string> => ({ start: (c) => void setTimeout(() => c.enqueue("tick"), 5), transform: (x, c) => c.enqueue(x) });
    const a = late();
    const viaStreamOut: string[][] = [];
    let streamError = "";
    try {
      for await (const b of stagedStream(a, ticking()) as unknown as AsyncIterable<string[]>) viaStreamOut.push(b);
    } catch (e) {
      streamError = String(e);
    }
    const b = late();
    const viaDrainOut: string[][] = [];
    let drainError = "";
    await drainStaged<string, string>(b, ticking(), (x) => (viaDrainOut.push(x), false)).catch((e) => (drainError = String(e)));
    expect(viaStreamOut).toEqual([["tick"]]);
    expect(streamError).toContain("source broke late");
    expect({ out: viaDrainOut, error: drainError, cancelled: b.cancelled }).toEqual({ out: viaStreamOut, error: streamError, cancelled: a.cancelled });
  });

  test("with no stage: the source's non-empty batches, in order", async () => {
    const batching: string[][] = [["a"], [], ["b", "c"], []];
    const src = source(batching);
    const out: string[][] = [];
    await drainStaged<string, string>(src, null, (b) => (out.push(b), false));
    expect(out).toEqual([["a"], ["b", "c"]]);
    expect(src.cancelled).toEqual([]);
  });
});

// ---- the whole turn: core's bytes → frames → reducer + detector → the turn's taps → one result ----

const enc = new TextEncoder();

/** Core's frames from `bytes` as the completion hands them on: a batch per read, whatever the read held. */
function frameBatches(chunks: Uint8Array[]): CoreFrame[][] {
  const d = new SseDecoder();
  const out = chunks.map((c) => d.push(c));
  out.push(d.end());
  return out;
}

function answerBody(tokens: string[], end: "finished" | "cut" | "error-line" | "error-key"): Uint8Array {
  const messages: unknown[] = [
    { v: { response: { status: "WIP", fragments: [{ id: 1, type: "RESPONSE", content: "" }] } } },
    ...tokens.map((t) => ({ p: "response/fragments/-1/content", o: "APPEND", v: t })),
  ];
  if (end === "finished") messages.push({ p: "response/status", o: "SET", v: "FINISHED" });
  let body = new TextDecoder().decode(bodyOfRounds([messages]));
  if (end === "cut") body = body.slice(0, body.lastIndexOf("data:") + 9); // EOF inside a data line, no close
  if (end === "error-line") body += 'data: {"type":"error","content":"rate limit reached","finish_reason":"rate_limit_reached"}\n\n';
  if (end === "error-key") body += 'data: {"error":"something broke"}\n\n';
  return enc.encode(body);
}

/** A frame source over `batches`; after them, the typed failure frame (as the core client ends a broken answer) or a throw. */
function frameSource(batches: CoreFrame[][], tail?: "failure" | "abort"): BatchSource<CoreFrame> & { cancelled: unknown[] } {
  const queue = [...batches];
  let tailed = false;
  const s = {
    cancelled: [] as unknown[],
    async next(): Promise<CoreFrame[] | null> {
      if (queue.length) return queue.shift()!;
      if (tail === "failure" && !tailed) {
        tailed = true;
        return [{ event: "failure", data: "core stream broke: socket closed", failure: "upstream_error" }];
      }
      if (tail === "abort") throw new DOMException("client left", "AbortError");
      return null;
    },
    async cancel(reason?: unknown) {
      s.cancelled.push(`cancel(${String(reason)})`);
    },
  };
  return s;
}

function turnSource(batches: CoreFrame[][], tools: string[], tail?: "failure" | "abort") {
  const steps = coreToTurnSteps({ thinkingEnabled: false, stripReferenceMarkers: true, searchEnabled: false }, assemblerOptions(tools, false), newReport());
  const frames = frameSource(batches, tail);
  return { source: coreToTurnSource(frames, steps), frames };
}

/** The turn's taps as a non-stream request has them: the request facts and a recorder (the history tap's place). */
function taps(seen: TurnEvent[], state: Record<string, unknown>): SyncTransformer<TurnEvent, TurnEvent>[] {
  return [{ transform: (ev, c) => (seen.push(ev), c.enqueue(ev)) }, turnFactsStage(state as never)];
}

async function both(bytes: Uint8Array, split: (b: Uint8Array) => Uint8Array[], tools: string[], tail?: "failure" | "abort") {
  const run = async (mode: "stream" | "drain") => {
    const { source, frames } = turnSource(frameBatches(split(bytes)), tools, tail);
    const seen: TurnEvent[] = [];
    const state: Record<string, unknown> = {};
    const stage = composeStages<TurnEvent, TurnEvent>(taps(seen, state));
    let result: unknown;
    let error: unknown;
    try {
      result = mode === "stream" ? await collectTurn(stagedStream(source, stage)) : await collectStaged(source, stage);
    } catch (e) {
      error = { name: (e as Error).name, message: (e as Error).message, status: (e as { status?: number }).status, code: (e as { code?: string }).code };
    }
    return { result, error, seen, state, cancelled: frames.cancelled };
  };
  return { old: await run("stream"), now: await run("drain") };
}

const splits: [string, (b: Uint8Array) => Uint8Array[]][] = [
  ["whole", (b) => [b]],
  ["1-byte reads", (b) => Array.from({ length: b.length }, (_, i) => b.subarray(i, i + 1))],
  ...[3, 42].map((seed): [string, (b: Uint8Array) => Uint8Array[]] => [`random reads ${seed}`, (b) => randomSplits(b, seed, 40)]),
];

describe("collectStaged = collectTurn over the staged stream, the whole turn", () => {
  for (const c of (loadVectors("svcml-cases.json") as any).cases as any[]) {
    const tokens = randomSplits(c.input_text as string, 5, 12);
    test(`svcml ${c.name}`, async () => {
      for (const [, split] of splits.slice(0, 1).concat(splits.slice(2))) {
        const r = await both(answerBody(tokens, "finished"), split, c.tools ?? []);
        expect(r.now).toEqual(r.old);
        // The vectors' answers (an empty one among them, which fails as upstream_empty_output) reached the taps.
        expect(r.old.seen.length).toBeGreaterThan(0);
      }
    });
  }

  for (const c of (loadVectors("svcml-stream-cases.json") as any).cases as any[]) {
    test(`svcml stream ${c.name}`, async () => {
      for (const [, split] of splits) {
        const r = await both(answerBody(c.chunks, "finished"), split, c.tools ?? []);
        expect(r.now).toEqual(r.old);
      }
    });
  }

  const words = Array.from({ length: 40 }, (_, i) => ` w${i}`);
  const callText = ['Running it.\n<|svcml|tool_calls>\n<|svcml|invoke name="Bash">\n<|svcml|parameter name="command"><![CDATA[ls', ' -la]]></|svcml|parameter>\n</|svcml|invoke>\n'];
  const hostile: [string, Uint8Array, string[], ("failure" | "abort")?][] = [
    ["core's body cut inside a data line", answerBody(words, "cut"), []],
    ["an error line after some answer", answerBody(words, "error-line"), []],
    ["an error key after some answer", answerBody(words, "error-key"), []],
    ["the typed failure frame after some answer (eof mid answer)", answerBody(words, "cut"), [], "failure"],
    ["a failure frame inside a tool call", answerBody(callText, "cut"), ["Bash"], "failure"],
    ["the read aborted (the client left)", answerBody(words, "cut"), [], "abort"],
    ["a tool call cut before its end", answerBody(callText, "cut"), ["Bash"]],
    ["no answer at all", answerBody([], "finished"), []],
  ];
  for (const [name, bytes, tools, tail] of hostile)
    test(name, async () => {
      for (const [, split] of splits) {
        const r = await both(bytes, split, tools, tail);
        expect(r.now).toEqual(r.old);
        // Each case ends the way its name says: the differential is not comparing two empty runs.
        if (tail === "abort") expect(r.old.error).toMatchObject({ name: "AbortError" });
        if (name.includes("error") || tail === "failure") expect(r.old.error ?? r.old.state.errorCode).toBeTruthy();
        expect(r.old.seen.length).toBeGreaterThan(0);
      }
    });
});

describe("StagedTurn.collect", () => {
  const answer = (): TurnEvent[][] => [[{ type: "text", text: "Hi there." }], [{ type: "finish", outcome: "stop", usage: { promptTokens: 3, completionTokens: 2, reasoningTokens: 0, totalTokens: 5 } } as TurnEvent]];
  const turn = () => new StagedTurn(source(answer() as never[][]) as unknown as BatchSource<TurnEvent>, "s1", "a", 3, undefined);

  test("collects once through the stages added; afterwards the events are read (an errored stream), a second collect and a body give null", async () => {
    const t = turn();
    const seen: string[] = [];
    t.through([{ transform: (ev: TurnEvent, c) => (seen.push(ev.type), c.enqueue(ev)) }]);
    const result = await t.collect()!;
    expect(result.text).toBe("Hi there.");
    expect(seen).toEqual(["text", "finish"]);
    expect(t.collect()).toBeNull();
    expect(t.bodyThrough([], { start() {}, transform() {}, flush() {}, cancel() {} })).toBeNull();
    await expect(collectTurn(t.events)).rejects.toThrow("already read");
  });

  test("a turn whose events were read (or replaced) is not collected here: collect gives null", async () => {
    const t = turn();
    const events = t.events;
    expect(t.collect()).toBeNull();
    expect((await collectTurn(events)).text).toBe("Hi there.");
  });
});
