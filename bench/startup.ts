// Cold start and idle memory of the compiled gateway (issue 35), side by side with a minimal compiled Bun server in
// the same run: exec → first 200 on /readyz (the fetch-cap re-exec included, as an operator starts it), median of
// the runs, and RSS once idle. Runs are interleaved (gateway, reference, gateway, …) and the ratio is taken per
// round, so a slow stretch of this shared machine falls on both sides alike; the ratios are the figures to compare.
// "CPU ms" is the CPU time the process's threads had used when /readyz first answered 200 (a loaded machine
// stretches the wall clock far more than the CPU a start needs). Every binary is read whole into the page cache
// first, so that their file pages count alike in RSS.
//
//   bun bench/startup.ts [--binary dist/svc-gateway]... [--runs 7] [--idle-ms 3000] [--preset-cap | --cap-only] [--log-level warn]
// Without --binary the gateway is compiled from this tree into a scratch folder first. Several --binary flags
// compare builds (say, before and after a change) in one run. --preset-cap adds, for each, a start with
// BUN_CONFIG_MAX_HTTP_REQUESTS already in the environment (as deploy/svc-gateway.service and the Dockerfile set
// it): the cap is as lifted, and no re-exec is needed.
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileGateway } from "../scripts/compile";
import { startCoreSimulator } from "../src/sim/index";
import { freePort } from "../tests/helpers/binary";
import { scratchDir } from "../tests/helpers/scratch";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const RUNS = Number(flag("runs", "7"));
const IDLE_MS = Number(flag("idle-ms", "3000"));
// warn by default (no line at start); --log-level info measures the default level, whose "listening" line is written.
const LOG_LEVEL = flag("log-level", "warn");
const ACCOUNTS = [{ email: "a@bench.test", password: "pw-a" }];

async function gatewayBinaries(): Promise<string[]> {
  const given = argv.flatMap((a, i) => (a === "--binary" ? [resolve(argv[i + 1]!)] : []));
  if (given.length) return given;
  const out = join(scratchDir("svc-bench-startup-"), "svc-gateway");
  await compileGateway({ outfile: out });
  return [out];
}

/** The reference: a compiled Bun server answering /readyz, nothing else. */
async function referenceBinary(): Promise<string> {
  const dir = scratchDir("svc-bench-minimal-");
  writeFileSync(join(dir, "server.ts"), `Bun.serve({ port: Number(process.env.PORT), hostname: "127.0.0.1", fetch: () => new Response("ok") });\n`);
  const out = join(dir, "minimal");
  const r = await Bun.build({ entrypoints: [join(dir, "server.ts")], target: "bun", minify: true, compile: { outfile: out } });
  if (!r.success) throw new AggregateError(r.logs, "minimal server failed to compile");
  return out;
}

interface Sample {
  startMs: number;
  /** CPU time the process's threads had used at that first 200 (schedstat): less sensitive to a loaded machine. */
  cpuMs: number;
  rssMb: number;
}

/** The CPU time of every live thread of `pid`, in ms (/proc/<pid>/task/<tid>/schedstat: ns on a CPU). */
function threadsCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {}
  }
  return ns / 1e6;
}

/** One cold start: exec → first 200 on /readyz, then RSS after IDLE_MS without a request (the idle collection, src/util/idle-gc.ts, runs 2 s after start-up). */
async function coldStart(binary: string, core: string, extraEnv: Record<string, string> = {}): Promise<Sample> {
  const dir = scratchDir("svc-bench-start-");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["sk-bench"], accounts: ACCOUNTS }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/readyz`;
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: core, LOG_LEVEL: LOG_LEVEL, ...extraEnv },
    stdout: "ignore",
    stderr: "inherit",
  });
  let startMs = NaN;
  let cpuMs = NaN;
  try {
    // A refused connection answers at once: poll every millisecond, so the poll adds ≤ 1 ms to the figure.
    for (let i = 0; i < 20_000 && proc.exitCode === null; i++) {
      try {
        if ((await fetch(url)).status === 200) {
          startMs = performance.now() - t0;
          cpuMs = threadsCpuMs(proc.pid);
          break;
        }
      } catch {}
      await Bun.sleep(1);
    }
    if (Number.isNaN(startMs)) throw new Error(`${binary} never answered /readyz (exit ${proc.exitCode})`);
    await Bun.sleep(IDLE_MS);
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
    return { startMs, cpuMs, rssMb: Number(rss?.[1] ?? NaN) / 1024 };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

/** Reads a file through a 1 MiB buffer (into the page cache, not into this process). */
function readThrough(path: string): void {
  const fd = openSync(path, "r");
  const buf = Buffer.alloc(1 << 20);
  try {
    while (readSync(fd, buf, 0, buf.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Variant {
  label: string;
  binary: string;
  env?: Record<string, string>;
}
const reference: Variant = { label: "minimal compiled Bun server", binary: await referenceBinary() };
const gateways: Variant[] = (await gatewayBinaries()).flatMap((b) => [
  // --cap-only: only the cap-preset start (the unit, the image), half the starts.
  ...(argv.includes("--cap-only") ? [] : [{ label: b, binary: b }]),
  ...(argv.includes("--preset-cap") || argv.includes("--cap-only") ? [{ label: `${b} (cap preset)`, binary: b, env: { BUN_CONFIG_MAX_HTTP_REQUESTS: "65535" } }] : []),
]);
const sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS, clock: "real" });
const samples = new Map<Variant, Sample[]>([reference, ...gateways].map((v) => [v, []]));
const ratios = new Map<Variant, { start: number[]; cpu: number[]; rss: number[] }>(gateways.map((g) => [g, { start: [], cpu: [], rss: [] }]));
try {
  // Every binary read whole first, so that all are in the page cache alike: the file pages a start maps count in
  // its RSS, and a mapping fault maps the neighbouring pages only when they are cached. A freshly copied build
  // against an older file read in part differed by ≈ 4 MB of file pages for the same code (issue 35).
  for (const v of samples.keys()) readThrough(v.binary);
  // One warm-up start each, not counted: the first exec of a fresh file pays the page cache.
  for (const v of samples.keys()) await coldStart(v.binary, sim.url, v.env);
  for (let r = 0; r < RUNS; r++) {
    const ref = await coldStart(reference.binary, sim.url);
    samples.get(reference)!.push(ref);
    for (const g of gateways) {
      const s = await coldStart(g.binary, sim.url, g.env);
      samples.get(g)!.push(s);
      ratios.get(g)!.start.push(s.startMs / ref.startMs);
      ratios.get(g)!.cpu.push(s.cpuMs / ref.cpuMs);
      ratios.get(g)!.rss.push(s.rssMb / ref.rssMb);
    }
  }
} finally {
  await sim.stop();
}

const fmt = (n: number, d = 1) => n.toFixed(d);
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`cold start (exec → /readyz 200) and idle RSS after ${IDLE_MS} ms; ${RUNS} interleaved runs; LOG_LEVEL=${LOG_LEVEL}; load avg ${load}`);
console.log(`${"binary".padEnd(56)} ${"median ms".padStart(10)} ${"min–max ms".padStart(14)} ${"CPU ms".padStart(7)} ${"RSS MB".padStart(8)} ${"× start".padStart(8)} ${"× CPU".padStart(6)} ${"× RSS".padStart(7)}`);
for (const [v, xs] of samples) {
  const st = xs.map((x) => x.startMs);
  const rt = ratios.get(v);
  console.log(
    `${v.label.slice(-56).padEnd(56)} ${fmt(median(st)).padStart(10)} ${`${fmt(Math.min(...st))}–${fmt(Math.max(...st))}`.padStart(14)} ${fmt(median(xs.map((x) => x.cpuMs))).padStart(7)} ${fmt(median(xs.map((x) => x.rssMb))).padStart(8)} ${(rt ? fmt(median(rt.start), 2) : "1").padStart(8)} ${(rt ? fmt(median(rt.cpu), 2) : "1").padStart(6)} ${(rt ? fmt(median(rt.rss), 2) : "1").padStart(7)}`,
  );
}
