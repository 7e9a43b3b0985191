// Shared set-up for the core client tests: a simulator over real sockets, a CoreClient on it with a small
// PoW pool, and helpers that decode a joined body with the pipeline's own SSE decoder and reducer.
import { CoreClient } from "../../src/core/client";
import { PowPool } from "../../src/core/pow/pool";
import { wireConfig, type UpstreamSection } from "../helpers/wire";
import { SseDecoder } from "../../src/core/sse";
import { CoreReducer } from "../../src/pipeline/core-reduce";
import type { CoreEvent } from "../../src/pipeline/types";
import type { CoreFrame } from "../../src/core/completion";
import { CoreError } from "../../src/core/errors";
import { startTestSimulator, TEST_ACCOUNTS } from "../helpers/sim";
import type { CoreSimulator, SimOptions } from "../../src/sim/index";

export { TEST_ACCOUNTS };

export interface Fixture {
  sim: CoreSimulator;
  client: CoreClient;
  pool: PowPool;
  stop(): Promise<void>;
}

export async function coreFixture(simOpts: SimOptions = {}, upstream: UpstreamSection = {}): Promise<Fixture> {
  const sim = await startTestSimulator(simOpts);
  const pool = new PowPool(1);
  const client = new CoreClient(wireConfig({ file_poll_interval_ms: 5, ...upstream }), sim.url, pool);
  return {
    sim,
    client,
    pool,
    async stop() {
      pool.close();
      await sim.stop();
    },
  };
}

export async function loginA(client: CoreClient): Promise<string> {
  return client.login(TEST_ACCOUNTS[0]!);
}

/** Runs the joined bytes through sseDecode + coreReduce and returns the visible text, thinking and events. */
export function reduceBody(bytes: Uint8Array, thinkingEnabled = true): { text: string; thinking: string; events: CoreEvent[] } {
  const dec = new SseDecoder();
  const red = new CoreReducer({ thinkingEnabled, stripReferenceMarkers: true });
  const events: CoreEvent[] = [];
  const on = (e: CoreEvent) => events.push(e);
  for (const f of dec.push(bytes)) red.push(f, on);
  for (const f of dec.end()) red.push(f, on);
  red.end(on);
  const join = (t: string) => events.filter((e) => e.type === t).map((e) => (e as { text: string }).text).join("");
  return { text: join("text"), thinking: join("thinking"), events };
}

/**
 * A completion's frames written back as SSE bytes, for tests that read the joined answer as core's text: the
 * completion itself offers only its frames. A typed failure frame errors this stream with that CoreError, as the
 * gateway's byte view once did.
 */
export function sseBytes(c: { frames: ReadableStream<CoreFrame[]> }): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return c.frames.pipeThrough(
    new TransformStream<CoreFrame[], Uint8Array>({
      transform(batch, ctl) {
        let s = "";
        for (const f of batch) {
          if (f.failure) return ctl.error(new CoreError(f.failure, f.data));
          if (f.comment) s += ": keep-alive\n\n";
          else if (f.event === "raw") s += `${f.data}\n`;
          else s += `${f.event === "message" ? "" : `event: ${f.event}\n`}${f.data.split("\n").map((l) => `data: ${l}\n`).join("")}\n`;
        }
        ctl.enqueue(enc.encode(s));
      },
    }),
  );
}

/** Every batch of a completion's frames, in order. */
export async function frameBatches(c: { frames: ReadableStream<CoreFrame[]> }): Promise<CoreFrame[][]> {
  return Array.fromAsync(c.frames as unknown as AsyncIterable<CoreFrame[]>);
}

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export const PROMPT = "<｜User｜>Tell me something<｜Assistant｜>";

export function completionInput(extra: Record<string, unknown> = {}) {
  return { modelType: "default", prompt: PROMPT, refFileIds: [] as string[], thinking: false, search: false, passThrough: {}, ...extra };
}
