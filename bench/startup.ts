// Cold start and idle memory of the compiled gateway (issue 35), side by side with a minimal compiled Bun server in
// the same run: exec → first 200 on /readyz (the fetch-cap re-exec included, as an operator starts it), median of
// the runs, and RSS once idle. Runs are interleaved (gateway, reference, gateway, …) and the ratio is taken per
// round, so a slow stretch of this shared machine falls on both sides alike; the ratios are the figures to compare.
//
//   bun bench/startup.ts [--binary dist/svc-gateway]... [--runs 7] [--idle-ms 2000]
// Without --binary the gateway is compiled from this tree into a scratch folder first. Several --binary flags
// compare builds (say, before and after a change) in one run.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compileGateway } from "../scripts/compile";
import { startCoreSimulator } from "../src/sim/index";
import { freePort } from "../tests/helpers/binary";
import { scratchDir } from "../tests/helpers/scratch";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const RUNS = Number(flag("runs", "7"));
const IDLE_MS = Number(flag("idle-ms", "3000"));
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
  rssMb: number;
}

/** One cold start: exec → first 200 on /readyz, then RSS after IDLE_MS without a request (the idle collection, src/util/idle-gc.ts, runs 2 s after start-up). */
async function coldStart(binary: string, core: string): Promise<Sample> {
  const dir = scratchDir("svc-bench-start-");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["sk-bench"], accounts: ACCOUNTS }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/readyz`;
  const t0 = performance.now();
  const proc = Bun.spawn([binary], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: core, LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "inherit",
  });
  let startMs = NaN;
  try {
    // A refused connection answers at once: poll every millisecond, so the poll adds ≤ 1 ms to the figure.
    for (let i = 0; i < 20_000 && proc.exitCode === null; i++) {
      try {
        if ((await fetch(url)).status === 200) {
          startMs = performance.now() - t0;
          break;
        }
      } catch {}
      await Bun.sleep(1);
    }
    if (Number.isNaN(startMs)) throw new Error(`${binary} never answered /readyz (exit ${proc.exitCode})`);
    await Bun.sleep(IDLE_MS);
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, "utf8"));
    return { startMs, rssMb: Number(rss?.[1] ?? NaN) / 1024 };
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const gateways = await gatewayBinaries();
const reference = await referenceBinary();
const sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS, clock: "real" });
const samples = new Map<string, Sample[]>([[reference, []], ...gateways.map((g) => [g, []] as [string, Sample[]])]);
const ratios = new Map<string, { start: number[]; rss: number[] }>(gateways.map((g) => [g, { start: [], rss: [] }]));
try {
  // One warm-up start each, not counted: the first exec of a fresh file pays the page cache.
  for (const b of samples.keys()) await coldStart(b, sim.url);
  for (let r = 0; r < RUNS; r++) {
    const ref = await coldStart(reference, sim.url);
    samples.get(reference)!.push(ref);
    for (const g of gateways) {
      const s = await coldStart(g, sim.url);
      samples.get(g)!.push(s);
      ratios.get(g)!.start.push(s.startMs / ref.startMs);
      ratios.get(g)!.rss.push(s.rssMb / ref.rssMb);
    }
  }
} finally {
  await sim.stop();
}

const fmt = (n: number, d = 1) => n.toFixed(d);
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
console.log(`cold start (exec → /readyz 200) and idle RSS after ${IDLE_MS} ms; ${RUNS} interleaved runs; load avg ${load}`);
console.log(`${"binary".padEnd(44)} ${"median ms".padStart(10)} ${"min–max ms".padStart(14)} ${"RSS MB".padStart(8)} ${"× start".padStart(8)} ${"× RSS".padStart(7)}`);
for (const [b, xs] of samples) {
  const st = xs.map((x) => x.startMs);
  const rt = ratios.get(b);
  const name = b === reference ? "minimal compiled Bun server" : b;
  console.log(
    `${name.slice(-44).padEnd(44)} ${fmt(median(st)).padStart(10)} ${`${fmt(Math.min(...st))}–${fmt(Math.max(...st))}`.padStart(14)} ${fmt(median(xs.map((x) => x.rssMb))).padStart(8)} ${(rt ? fmt(median(rt.start), 2) : "1").padStart(8)} ${(rt ? fmt(median(rt.rss), 2) : "1").padStart(7)}`,
  );
}
