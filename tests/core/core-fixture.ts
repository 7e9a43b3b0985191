// Shared set-up for the core client tests: a simulator over real sockets, a CoreClient on it with a small
// PoW pool, and helpers that decode a joined body with the pipeline's own SSE decoder and reducer.
import { CoreClient } from "../../src/core/client";
import { PowPool } from "../../src/core/pow/pool";
import { wireConfig, type UpstreamSection } from "../helpers/wire";
import { SseDecoder } from "../../src/core/sse";
import { CoreReducer } from "../../src/pipeline/core-reduce";
import type { CoreEvent } from "../../src/pipeline/types";
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

export async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

export const PROMPT = "<｜User｜>Tell me something<｜Assistant｜>";

export function completionInput(extra: Record<string, unknown> = {}) {
  return { modelType: "default", prompt: PROMPT, refFileIds: [] as string[], thinking: false, search: false, passThrough: {}, ...extra };
}
