// What a request leaves for the garbage collector (issue 35 targets 2 and 3): the JavaScript heap allocated per
// request, and the collections it costs the main thread. A heap census (bench/stream-census.ts) counts what a
// request keeps; this counts what it drops. JavaScriptCore logs every collection with `BUN_JSC_logGC=1`: the heap's
// size when it started and when it ended, and its pause. What was allocated between two collections is the next
// one's start size minus the last one's end size, whatever triggered it; summed over the collections inside the
// measured window and divided by its requests, that is the garbage a request makes (± one collection's worth).
//
//   bun run build && bun bench/gc-per-request.ts [--binary dist/svc-gateway] [--warm 12000] [--requests 8000] [--conns 16] [--stream]
//   bun bench/gc-per-request.ts --proxy [same-calls|floor-elysia|…]     (a reference instead: bench/processes.ts ReferenceMode)
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort, loadChat, startGatewayProcess, startProxyProcess, waitReady, type ReferenceMode } from "./processes";
import { BENCH_ACCOUNTS, flag, hasFlag } from "./args";
import { scratchDir } from "../tests/helpers/scratch";

const BINARY = flag("binary", "dist/svc-gateway");
const WARM = Number(flag("warm", "12000"));
const REQUESTS = Number(flag("requests", "8000"));
const CONNS = Number(flag("conns", "16"));
const STREAM = hasFlag("stream");
/** A reference in the gateway's place: `--proxy` alone (or followed by another flag) is the same-calls proxy. */
const proxyArg = flag("proxy", "");
const PROXY: ReferenceMode | null = !hasFlag("proxy") ? null : proxyArg && !proxyArg.startsWith("--") ? (proxyArg as ReferenceMode) : "same-calls";
const ACCOUNTS = BENCH_ACCOUNTS;
const KEY = "sk-bench";

interface Collection { kind: string; startKb: number; endKb: number; pauseMs: number }

/** The collections logged in `text`: `[GC<…>: START M <start>kb => <Kind>Collection, … => <end>kb, p=<pause>ms`. */
function collections(text: string): Collection[] {
  const out: Collection[] = [];
  for (const m of text.matchAll(/START M (\d+)kb => (\w+)Collection,.*?=> (\d+)kb, p=([\d.]+)ms/g)) {
    out.push({ startKb: Number(m[1]), kind: m[2]!, endKb: Number(m[3]), pauseMs: Number(m[4]) });
  }
  return out;
}


if (import.meta.main) {
  const log = join(scratchDir("svc-gc-"), "stderr.log");
  const simPort = await freePort();
  const sim = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "ignore" });
  const core = `http://127.0.0.1:${simPort}`;
  await waitReady(`${core}/_sim/state`);
  const env = { BUN_JSC_logGC: "1" };
  const gw = PROXY
    ? await startProxyProcess(PROXY, core, ACCOUNTS[0]!, env, log)
    : await startGatewayProcess(BINARY, core, { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 } }, env, log);
  try {
    await loadChat(gw.url, KEY, WARM, 64, STREAM);
    const from = statSync(log).size;
    await loadChat(gw.url, KEY, REQUESTS, CONNS, STREAM);
    const window = readFileSync(log).subarray(from).toString("latin1");
    const cs = collections(window);
    let allocatedKb = 0;
    for (let i = 1; i < cs.length; i++) allocatedKb += Math.max(0, cs[i]!.startKb - cs[i - 1]!.endKb);
    const pauseMs = cs.reduce((s, c) => s + c.pauseMs, 0);
    const kinds = new Map<string, number>();
    for (const c of cs) kinds.set(c.kind, (kinds.get(c.kind) ?? 0) + 1);
    const who = PROXY ? `reference ${PROXY}` : BINARY;
    console.log(`${who}: ${REQUESTS} ${STREAM ? "stream" : "non-stream"} requests at ${CONNS} conns, load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
    console.log(`collections: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ") || "none"}`);
    // The first collection's start has no end before it in the window: what was allocated before it is not counted.
    console.log(`allocated: ${((allocatedKb * 1024) / REQUESTS).toFixed(0)} B/request (between ${cs.length} collections)`);
    // The collections the allocation itself asked for say what it was: cells ("normal") and large allocations
    // ("oversized": a 256 KiB read buffer was one). A collection asked for otherwise (a timer) resets the count.
    let normal = 0;
    let oversized = 0;
    let asked = 0;
    for (const m of window.matchAll(/bytes allocated this cycle: \d+ .*?normal bytes: (\d+) oversized bytes: (\d+)/g)) {
      asked++;
      normal += Number(m[1]);
      oversized += Number(m[2]);
    }
    console.log(`of which ${asked} asked for by allocation: ${(normal / REQUESTS).toFixed(0)} B/request of cells, ${(oversized / REQUESTS).toFixed(0)} B/request oversized (a lower bound)`);
    console.log(`paused: ${((pauseMs * 1000) / REQUESTS).toFixed(1)} µs/request on the main thread`);
  } finally {
    gw.stop();
    sim.kill();
  }
}
