// What a request allocates, by object type (issue 35 targets 2 and 3): bench/gc-per-request.ts gives the bytes,
// this the kinds. The gateway from source in this process, the simulator and the client in processes of their own
// (so their objects stay out of the counts). JavaScriptCore counts the cells allocated since the last collection
// as live until the next one, so a census right after a full collection and another after a few requests — too few
// to start a collection — differ by what those requests allocated, kept or not. Several samples; the median per
// type, per request.
//
//   bun bench/alloc-types.ts [--requests 40] [--samples 7] [--top 50] [--stream] [--config '{"upstream":{"stream_client":"socket"}}']
//   bun bench/alloc-types.ts --model no-such-model --status 400    (the edge alone: auth, body, routing, the error)
//   bun bench/alloc-types.ts --env '{"SVC_DEV_CAPTURE":"0"}' --config '{"request_log":{"enabled":false}}'   (what a part costs, by difference)
import { heapStats } from "bun:jsc";
import { makeTestApp } from "../tests/helpers/app";
import { startSourceSimulator } from "./processes";
import { benchConfig, flag, hasFlag } from "./args";

const REQUESTS = Number(flag("requests", "40"));
const SAMPLES = Number(flag("samples", "7"));
const TOP = Number(flag("top", "50"));
const STREAM = hasFlag("stream");
const extra = JSON.parse(flag("config", "{}")) as Record<string, Record<string, unknown>>;
const extraEnv = JSON.parse(flag("env", "{}")) as Record<string, string>;
const KEY = "sk-bench";
const MODEL = flag("model", "core-v4-flash");
const STATUS = Number(flag("status", "200"));

/** The client: on each line read from stdin, N requests one after another, then "done" on stdout. */
function clientScript(port: number): string {
  const body = JSON.stringify({ model: MODEL, stream: STREAM, messages: [{ role: "user", content: "hello" }] });
  return `
    const go = async (n) => { for (let i = 0; i < n; i++) { const r = await fetch("http://127.0.0.1:${port}/v1/chat/completions", { method: "POST", headers: { Authorization: "Bearer ${KEY}", "Content-Type": "application/json" }, body: ${JSON.stringify(body)} }); if (r.status !== ${STATUS}) throw new Error(await r.text()); await r.arrayBuffer(); } };
    for await (const line of console) { await go(Number(line)); console.log("done"); }
  `;
}

const sim = await startSourceSimulator();
const simUrl = sim.url;
const config = benchConfig(KEY, extra);
// The access line is built as in production (level info); the test logger keeps it in memory instead of writing it.
const t = await makeTestApp({ config, env: { SVC_CORE_BASE_URL: simUrl, ...extraEnv }, logLevel: "info" });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => t.app.handle(r) });
const client = Bun.spawn(["bun", "-e", clientScript(server.port!)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
const out = client.stdout.getReader();
async function run(n: number): Promise<void> {
  client.stdin.write(`${n}\n`);
  client.stdin.flush();
  let said = "";
  while (!said.includes("done")) {
    const r = await out.read();
    if (r.done) throw new Error(`client ended: ${said}`);
    said += new TextDecoder().decode(r.value);
  }
}

try {
  for (let i = 0; i < 20; i++) await run(100);
  const perType = new Map<string, number[]>();
  const totals: number[] = [];
  // What a census itself allocates (its answer is an object of ≈ 150 keys, structures and all), read with no
  // request between two censuses: subtracted from every sample.
  Bun.gc(true);
  const e0 = heapStats().objectTypeCounts;
  const e1 = heapStats().objectTypeCounts;
  const own = (type: string) => (e1[type] ?? 0) - (e0[type] ?? 0);
  for (let s = 0; s < SAMPLES; s++) {
    t.logs.length = 0;
    Bun.gc(true);
    const before = heapStats().objectTypeCounts;
    await run(REQUESTS);
    const after = heapStats().objectTypeCounts;
    let total = 0;
    for (const [type, n] of Object.entries(after)) {
      const d = (n - (before[type] ?? 0) - own(type)) / REQUESTS;
      total += d;
      if (!perType.has(type)) perType.set(type, []);
      perType.get(type)!.push(d);
    }
    totals.push(total);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows = [...perType].map(([type, xs]) => [type, median(xs)] as const).sort((a, b) => b[1] - a[1]);
  console.log(`${STREAM ? "stream" : "non-stream"} chat requests, ${REQUESTS} a sample, ${SAMPLES} samples: ${median(totals).toFixed(0)} cells allocated per request (median; totals ${totals.map((x) => x.toFixed(0)).join(", ")})`);
  for (const [type, n] of rows.slice(0, TOP)) console.log(`${n.toFixed(1).padStart(8)}  ${type}`);
} finally {
  client.kill();
  server.stop(true);
  sim.stop();
}
