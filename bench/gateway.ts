// The gateway at a proxy's cost? (issue 17) The compiled binary against the core simulator, side by side with two
// references in their own processes (bench/gateway-proxy.ts): a ~30-line Bun proxy making the same core calls
// (session, PoW, completion) and a bare proxy that only forwards a completion. Rounds are interleaved and ratios
// are taken within a round, so a slow stretch of this shared 2-core machine falls on both sides alike. A third,
// informational reference makes the same calls but solves the PoW in a worker, as the gateway must (and a fourth,
// the floor of bench/request-floor.ts, the required work in Elysia): at the
// simulator's difficulty 1000 the search is ≈ 0.1 ms and the thread hand-off as much again (PERFORMANCE.md).
//
//   bun run build && bun bench/gateway.ts [--binary dist/svc-gateway] [--rounds 3] [--warm 24000] [--quick] [--burst-only] [--sim-in-process]
// --warm N: before the rounds, every target serves N non-stream requests at 64 connections and N/8 streamed ones
// at 16. The gateway's JIT takes ≈ 20,000 requests to settle (its CPU per request falls ≈ 35 % over them; a proxy
// of 30 lines settles within a few hundred), and an operator's gateway runs at the settled cost; the curve is
// printed, so the cold cost stays in view.
// --burst-only: only the 2,000-word burst, 15 answers per target and round, nothing run before it.
// --hold-only: only the 1,000 concurrent silent streams, on a fresh gateway's first wave (issue 35's memory per
// open stream), after the 30 warm-up requests; bench/felt-latency.ts has the time to first token users feel.
// The simulator runs in its own process (the binary's `sim` command), like everything it serves: in this process
// it answered slowly while the bench's own clients were busy, and a target making more calls to it (the gateway:
// session, PoW, completion) paid that more often than the bare proxy. --sim-in-process: the old set-up, to compare.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { startCoreSimulator } from "../src/sim/index";
import { openRaw, type RawConnection } from "../tests/helpers/raw-http";
import { RawCore } from "../tests/helpers/sim";
import { freePort, startGatewayProcess, startProxyProcess, waitReady, cpuMs } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const ROUNDS = Number(flag("rounds", "3"));
const QUICK = argv.includes("--quick");
const WARM = Number(flag("warm", QUICK ? "4000" : "24000"));
const BURST_ONLY = argv.includes("--burst-only");
const HOLD_ONLY = argv.includes("--hold-only");
const SIM_IN_PROCESS = argv.includes("--sim-in-process");
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";
const LONG = "[[sim:words n=2000]] write";

interface Target {
  name: string;
  url: string;
  port: number;
  pid: number;
  stop(): void;
}

// ---- processes ----

async function startGateway(core: string): Promise<Target> {
  // --stream-client socket|fetch: upstream.stream_client, to compare the two clients on one binary (issue 35).
  const streamClient = flag("stream-client", "") ? { stream_client: flag("stream-client", "") } : {};
  const config = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, upstream: { stream_idle_timeout_ms: 120_000, ...streamClient } };
  // MIMALLOC_* and BUN_* variables reach the gateway (memory experiments), as in bench/soak.ts.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => /^(MIMALLOC_|BUN_)/.test(k) && v !== undefined)) as Record<string, string>;
  return { name: "gateway", ...(await startGatewayProcess(BINARY, core, config, env)) };
}

async function startProxy(mode: "same-calls" | "same-calls-worker" | "bare", core: string): Promise<Target> {
  return { name: mode, ...(await startProxyProcess(mode, core, ACCOUNTS[0]!)) };
}


function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
}

// ---- requests ----

let rawCore: RawCore;
let pow = "";

/** One request, timed: first body byte and last byte, in ms from the start. */
async function one(t: Target, prompt: string, stream: boolean): Promise<{ first: number; last: number; bytes: number }> {
  const start = performance.now();
  let res: Response;
  if (t.name === "bare") {
    const session = await rawCore.session();
    const t0 = performance.now();
    res = await fetch(t.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", authorization: `Bearer ${rawCore.token}`, "x-core-pow-response": pow },
      body: JSON.stringify({ chat_session_id: session, model_type: "default", parent_message_id: null, prompt, ref_file_ids: [], thinking_enabled: false, search_enabled: false }),
    });
    return read(res, t0);
  }
  const headers: Record<string, string> = { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` };
  res = await fetch(`${t.url}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model: "core-v4-flash", stream, messages: [{ role: "user", content: prompt }] }) });
  return read(res, start);
}

async function read(res: Response, start: number) {
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - start;
    bytes += value.byteLength;
  }
  return { first, last: performance.now() - start, bytes };
}

/** `conns` clients in a loop for `ms`: requests per second and the target's CPU per request. */
async function load(t: Target, conns: number, ms: number, prompt: string, stream: boolean) {
  const cpu0 = cpuMs(t.pid);
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() - t0 < ms) {
        await one(t, prompt, stream);
        done++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  return { rps: done / secs, cpuPerReq: (cpuMs(t.pid) - cpu0) / done, done, secs };
}

/** `n` requests over `conns` clients: the target's CPU per request. */
async function serveCount(t: Target, conns: number, n: number, prompt: string, stream: boolean): Promise<number> {
  const cpu0 = cpuMs(t.pid);
  let started = 0;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (started < n) {
        started++;
        await one(t, prompt, stream);
      }
    }),
  );
  return (cpuMs(t.pid) - cpu0) / n;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const f = (n: number, d = 2) => n.toFixed(d);

// ---- the run ----

/** The simulator, in its own process unless --sim-in-process; `set` goes through its control API (§12.10). */
async function startSim(): Promise<{ url: string; set(switches: Record<string, unknown>): Promise<void>; stop(): Promise<void> }> {
  if (SIM_IN_PROCESS) {
    const s = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS, clock: "real" });
    return { url: s.url, set: async (sw) => void s.set(sw), stop: () => s.stop() };
  }
  const port = await freePort();
  // `sim` accepts any credentials (open mode), so the bench's accounts log in as they are.
  const proc = Bun.spawn([BINARY, "sim", "--port", String(port), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/_sim/state`);
  const set = async (sw: Record<string, unknown>) => {
    const r = await fetch(`${url}/_sim/config`, { method: "POST", body: JSON.stringify(sw) });
    if (!r.ok) throw new Error(`simulator config: HTTP ${r.status} ${await r.text()}`);
  };
  return { url, set, stop: async () => void proc.kill() };
}

const sim = await startSim();
rawCore = new RawCore(sim.url);
await rawCore.loginAs(ACCOUNTS[0]!);
pow = await rawCore.pow();
const gw = await startGateway(sim.url);
const same = await startProxy("same-calls", sim.url);
const bare = await startProxy("bare", sim.url);
// Informational, beside the reference: the same calls with the PoW solved off the event loop, as the
// gateway must (the brief); the gateway's targets stay measured against `same`.
const sameWorker = await startProxy("same-calls-worker", sim.url);
// Informational too: the floor, the least a gateway on this stack must do per non-stream request (the required
// work in Elysia, bench/request-floor.ts); it answers non-stream requests only.
const floor: Target = { name: "floor-elysia", ...(await startProxyProcess("floor-elysia", sim.url, ACCOUNTS[0]!)) };
const lines: string[] = [];
/** Ends a --burst-only run after its one line (the finally below stops the processes). */
const BURST_DONE = Symbol("burst only");
const out = (s: string) => {
  lines.push(s);
  console.log(s);
};
try {
  // Core token events of the long answer, counted on core's own stream.
  const coreBody = await (await rawCore.completion(await rawCore.session(), LONG, { pow })).text();
  const tokenEvents = coreBody.split("\n").filter((l) => l.startsWith("data:")).length;
  // Warm-up: logins, PoW workers, the JIT.
  for (const t of [gw, same, bare, sameWorker]) for (let i = 0; i < 30; i++) await one(t, `warm ${i}`, i % 2 === 0);
  if (!BURST_ONLY && !HOLD_ONLY && WARM > 0) {
    const BLOCK = 4000;
    for (const t of [gw, same, sameWorker, bare]) {
      const curve: string[] = [];
      for (let done = 0; done < WARM; done += BLOCK) curve.push(f(await serveCount(t, 64, Math.min(BLOCK, WARM - done), "hello", false), 3));
      await serveCount(t, 16, Math.ceil(WARM / 8), "hello", true);
      out(`warm-up, ${t.name}: CPU per non-stream request (ms) per ${BLOCK} at 64 conns: ${curve.join(" ")}`);
    }
    const curve: string[] = [];
    for (let done = 0; done < WARM; done += BLOCK) curve.push(f(await serveCount(floor, 64, Math.min(BLOCK, WARM - done), "hello", false), 3));
    out(`warm-up, ${floor.name}: CPU per non-stream request (ms) per ${BLOCK} at 64 conns: ${curve.join(" ")}`);
  }

  const perRound: Record<string, number[]> = {};
  const add = (k: string, v: number) => (perRound[k] ??= []).push(v);
  const lat: Record<string, number[]> = {};
  const addLat = (k: string, v: number) => (lat[k] ??= []).push(v);
  for (let r = 0; r < ROUNDS && BURST_ONLY; r++) {
    await sim.set({ write: "coalesce" });
    for (const t of r % 2 ? [bare, same, gw] : [gw, same, bare]) {
      const runs = [];
      for (let i = 0; i < 15; i++) runs.push(await one(t, LONG, true));
      add(`${t.name} burst last`, median(runs.map((x) => x.last)));
    }
    await sim.set({ write: "event" });
  }
  for (let r = 0; r < ROUNDS && !BURST_ONLY && !HOLD_ONLY; r++) {
    const order = r % 2 ? [same, gw] : [gw, same];
    // 1 connection: latency, non-stream and stream.
    for (const t of order)
      for (let i = 0; i < (QUICK ? 30 : 100); i++) {
        addLat(`${t.name} ns`, (await one(t, `hello ${i}`, false)).last);
        addLat(`${t.name} s`, (await one(t, `hello ${i}`, true)).last);
      }
    // 16 and 64 connections, non-stream: throughput and CPU per request.
    for (const c of [16, 64]) {
      const res: Record<string, Awaited<ReturnType<typeof load>>> = {};
      for (const t of r % 2 ? [floor, sameWorker, ...order] : [...order, sameWorker, floor]) res[t.name] = await load(t, c, QUICK ? 1500 : 3000, "hello", false);
      add(`rps ratio ${c}`, res.gateway!.rps / res["same-calls"]!.rps);
      add(`cpu ratio ${c}`, res.gateway!.cpuPerReq / res["same-calls"]!.cpuPerReq);
      add(`gw rps ${c}`, res.gateway!.rps);
      add(`proxy rps ${c}`, res["same-calls"]!.rps);
      add(`gw cpu ${c}`, res.gateway!.cpuPerReq);
      add(`proxy cpu ${c}`, res["same-calls"]!.cpuPerReq);
      add(`worker-proxy cpu ${c}`, res["same-calls-worker"]!.cpuPerReq);
      add(`worker cpu ratio ${c}`, res.gateway!.cpuPerReq / res["same-calls-worker"]!.cpuPerReq);
      add(`worker rps ratio ${c}`, res.gateway!.rps / res["same-calls-worker"]!.rps);
      add(`floor cpu ${c}`, res["floor-elysia"]!.cpuPerReq);
      add(`floor cpu ratio ${c}`, res["floor-elysia"]!.cpuPerReq / res["same-calls"]!.cpuPerReq);
      add(`gw/floor cpu ${c}`, res.gateway!.cpuPerReq / res["floor-elysia"]!.cpuPerReq);
    }
    // CPU per core token event: long streams minus short ones, per extra event.
    for (const t of r % 2 ? [bare, gw] : [gw, bare]) {
      const n = QUICK ? 10 : 20;
      let c0 = cpuMs(t.pid);
      for (let i = 0; i < n; i++) await one(t, LONG, true);
      const long = cpuMs(t.pid) - c0;
      c0 = cpuMs(t.pid);
      for (let i = 0; i < n; i++) await one(t, "[[sim:words n=1]] write", true);
      const short = cpuMs(t.pid) - c0;
      add(`${t.name} us/event`, ((long - short) * 1000) / (n * (tokenEvents - 8)));
    }
    // A 2,000-word answer arriving in one burst (core writes many events per packet).
    await sim.set({ write: "coalesce" });
    for (const t of r % 2 ? [bare, same, gw] : [gw, same, bare]) {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await one(t, LONG, true));
      add(`${t.name} burst first`, median(runs.map((x) => x.first)));
      add(`${t.name} burst last`, median(runs.map((x) => x.last)));
    }
    await sim.set({ write: "event" });
    // 16 concurrent streams: core token events per second.
    for (const t of r % 2 ? [bare, gw] : [gw, bare]) {
      const res = await load(t, 16, QUICK ? 2000 : 4000, LONG, true);
      add(`${t.name} tokens/s 16`, (res.done * tokenEvents) / res.secs);
    }
  }
  const m = (k: string) => median(perRound[k] ?? []);
  out(`core token events per long answer: ${tokenEvents}; rounds: ${ROUNDS}`);
  if (BURST_ONLY) {
    out(`2,000-word burst alone, last byte (ms): gateway ${f(m("gateway burst last"))}; same-calls ${f(m("same-calls burst last"))}; bare ${f(m("bare burst last"))} → gateway ${f(m("gateway burst last") / m("bare burst last"))}× bare`);
    throw BURST_DONE;
  }
  if (!HOLD_ONLY) printRounds();
  function printRounds() {
  out(`CPU per non-stream request, 16 conns (ms): gateway ${f(m("gw cpu 16"))} / same-calls proxy ${f(m("proxy cpu 16"))} → ${f(m("cpu ratio 16"))}×`);
  out(`CPU per non-stream request, 64 conns (ms): gateway ${f(m("gw cpu 64"))} / same-calls proxy ${f(m("proxy cpu 64"))} → ${f(m("cpu ratio 64"))}×`);
  out(`  vs a same-calls proxy solving the PoW in a worker (informational), CPU per request (16 / 64 conns): ${f(m("worker-proxy cpu 16"))} / ${f(m("worker-proxy cpu 64"))} ms → ${f(m("worker cpu ratio 16"))}× / ${f(m("worker cpu ratio 64"))}×; requests/s → ${f(m("worker rps ratio 16"))}× / ${f(m("worker rps ratio 64"))}×`);
  out(`  the floor (the required work in Elysia, informational), CPU per request (16 / 64 conns): ${f(m("floor cpu 16"))} / ${f(m("floor cpu 64"))} ms → ${f(m("floor cpu ratio 16"))}× / ${f(m("floor cpu ratio 64"))}× the same-calls proxy; the gateway ${f(m("gw/floor cpu 16"))}× / ${f(m("gw/floor cpu 64"))}× the floor`);
  out(`requests/s at 16 conns: gateway ${f(m("gw rps 16"), 0)} / proxy ${f(m("proxy rps 16"), 0)} → ${f(m("rps ratio 16"))}×`);
  out(`requests/s at 64 conns: gateway ${f(m("gw rps 64"), 0)} / proxy ${f(m("proxy rps 64"), 0)} → ${f(m("rps ratio 64"))}×`);
  out(`p50 at 1 conn, non-stream (ms): gateway ${f(median(lat["gateway ns"]!))} / proxy ${f(median(lat["same-calls ns"]!))} → +${f(median(lat["gateway ns"]!) - median(lat["same-calls ns"]!))}`);
  out(`p50 at 1 conn, stream (ms): gateway ${f(median(lat["gateway s"]!))} / proxy ${f(median(lat["same-calls s"]!))} → +${f(median(lat["gateway s"]!) - median(lat["same-calls s"]!))}`);
  out(`CPU per core token event (µs): gateway ${f(m("gateway us/event"))} / bare proxy ${f(m("bare us/event"))}`);
  out(`2,000-word burst, first / last byte (ms): gateway ${f(m("gateway burst first"), 1)} / ${f(m("gateway burst last"), 1)}; same-calls ${f(m("same-calls burst first"), 1)} / ${f(m("same-calls burst last"), 1)}; bare ${f(m("bare burst first"), 1)} / ${f(m("bare burst last"), 1)}`);
  out(`16 concurrent streams, core token events/s: gateway ${f(m("gateway tokens/s 16") / 1000, 0)} k / bare ${f(m("bare tokens/s 16") / 1000, 0)} k`);
  }

  // 1,000 concurrent streams held open (core stalls mid-answer): all open? memory per stream?
  for (const t of [gw, bare]) {
    await Bun.sleep(3000);
    const idle = rssKb(t.pid);
    const conns: RawConnection[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) {
      const c = await openRaw(t.port);
      if (t.name === "bare") {
        const body = JSON.stringify({ chat_session_id: await rawCore.session(), model_type: "default", parent_message_id: null, prompt: "[[sim:stall ms=30000]] hold", ref_file_ids: [], thinking_enabled: false, search_enabled: false });
        c.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nauthorization: Bearer ${rawCore.token}\r\nx-core-pow-response: ${pow}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      } else {
        const body = JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "[[sim:stall ms=30000]] hold" }] });
        // The Host a client sends: "x" made the gateway re-address every request (http/route-url.ts), a Request
        // more per open stream than a real client costs.
        c.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      }
      conns.push(c);
    }
    const answered = () => conns.filter((c) => c.received().includes("data: {")).length;
    while (answered() < 1000 && performance.now() - t0 < 20_000) await Bun.sleep(50);
    const allIn = performance.now() - t0;
    await Bun.sleep(1000);
    const held = rssKb(t.pid);
    out(`1,000 concurrent streams, ${t.name}: ${answered()} open with bytes after ${f(allIn / 1000, 1)} s; RSS +${f((held - idle) / 1024, 1)} MB over idle (${f((held - idle) / 1000, 1)} KB per stream)`);
    for (const c of conns) c.destroy();
  }
} catch (e) {
  if (e !== BURST_DONE) throw e;
} finally {
  for (const t of [gw, same, bare, sameWorker, floor]) t.stop();
  await sim.stop();
}
