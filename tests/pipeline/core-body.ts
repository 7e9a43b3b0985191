// Builds core-shaped SSE bodies for the stream-stage tests and runs sseDecode + coreReduce over chunkings.
import { onePerUnit, randomSplits, runTransform } from "../helpers/chunking";
import { sseDecode } from "../helpers/text-stages";
import type { ReduceOptions } from "../../src/pipeline/core-reduce";
import { coreReduce } from "../helpers/stages";
import type { CoreEvent } from "../../src/pipeline/types";
import type { SseFrame } from "../../src/core/sse";

const enc = new TextEncoder();

export const READY = 'event: ready\ndata: {"request_message_id":1,"response_message_id":2,"model_type":"default"}\n\n';

/** Rounds of `message` payloads, each round opened by a `ready` event as core does. */
export function bodyOfRounds(rounds: unknown[][], eol = "\n"): Uint8Array {
  let s = "";
  for (const msgs of rounds) {
    s += READY;
    s += 'event: update_session\ndata: {"updated_at":1775322810.106091}\n\n';
    for (const m of msgs) s += `data: ${JSON.stringify(m)}\n\n`;
    s += 'event: close\ndata: {"click_behavior":"none","auto_resume":false}\n\n';
  }
  return enc.encode(eol === "\n" ? s : s.replaceAll("\n", eol));
}

export type Split = [label: string, split: (b: Uint8Array) => Uint8Array[]];

/** Whole, one byte at a time, and random splits with several seeds. */
export const SPLITS: Split[] = [
  ["whole", (b) => [b]],
  ["one byte at a time", (b) => onePerUnit(b)],
  ...[1, 7, 42, 1234].map((seed): Split => [`random splits seed ${seed}`, (b) => randomSplits(b, seed, 29)]),
];

export interface Reduced {
  events: CoreEvent[];
  frames: SseFrame[];
  thinking: string;
  answer: string;
  end: Extract<CoreEvent, { type: "end" }>;
}

export async function reduceBytes(chunks: Uint8Array[], opts: ReduceOptions = { thinkingEnabled: true, stripReferenceMarkers: false }): Promise<Reduced> {
  const frames = await runTransform(sseDecode(), chunks);
  const events = await runTransform(coreReduce(opts), frames);
  return summarise(events, frames);
}

export function summarise(events: CoreEvent[], frames: SseFrame[] = []): Reduced {
  const thinking = events.map((e) => (e.type === "thinking" ? e.text : "")).join("");
  const answer = events.map((e) => (e.type === "text" ? e.text : "")).join("");
  const end = events.find((e) => e.type === "end") as Reduced["end"];
  return { events, frames, thinking, answer, end };
}
