// What the request log costs (issue 31's budget: ≤ 3 % of non-stream requests/s). ONE compiled gateway on a
// simulator (in its own process), its request log switched on and off between slots by rewriting
// `request_log.enabled` in its config file and sending SIGHUP (a log opened at start follows the flag live):
// two processes, one per arm, differed by a few percent even with the log on in both (their JIT and memory
// layout), as much as the effect looked for. Slots run in ABBA blocks (on off off on, then off on on off), so a
// drift of the shared machine's load within a block falls on both arms alike; each block gives one on/off ratio
// of req/s and of the gateway's CPU per request (every thread, from /proc/<pid>/stat; the main thread alone too,
// from its schedstat: it is the event loop that bounds req/s). Reported: the median over blocks, the quartiles
// and the extremes. Each slot checks the switch took: rows written (the request_log_written gauge) ≈ requests
// in an "on" slot, none in an "off" one. --aa keeps the log on in both arms: the bench's own noise and bias.
//
//   bun run build && bun bench/request-log.ts [--binary dist/svc-gateway] [--blocks 8] [--ms 2500] [--warm 20000] [--conns 16,64] [--aa]
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { freePort, waitReady } from "./processes";
import { scratchDir } from "../tests/helpers/scratch";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const BLOCKS = Number(flag("blocks", "8"));
const MS = Number(flag("ms", "2500"));
// The gateway's JIT takes ≈ 20,000 requests to settle (PERFORMANCE.md, issue 17's seventh pass).
const WARM = Number(flag("warm", "20000"));
const CONNS = flag("conns", "16,64").split(",").map(Number);
const AA = argv.includes("--aa");
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";
const ADMIN = { Authorization: "Bearer bench-admin" };
const CLK_TCK = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/**
 * CPU time in ms of `pid`: every thread (utime + stime of /proc/<pid>/stat, in clock ticks: it keeps the time of
 * threads that have ended, which a sum over /proc/<pid>/task/* loses — a slot once read a negative CPU), and the
 * main thread alone (tid = pid, schedstat in ns).
 */
function cpuMs(pid: number): { all: number; main: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command's closing parenthesis.
  const all = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  const main = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  return { all, main };
}

async function one(url: string): Promise<void> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "hello" }] }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

async function written(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { headers: ADMIN })).text();
  return Number(/^svc_gateway_request_log_written (\d+)/m.exec(text)?.[1] ?? NaN);
}

interface Slot {
  rps: number;
  /** µs of CPU per request, every thread / the main thread. */
  cpu: number;
  mainCpu: number;
}

async function load(url: string, pid: number, conns: number, ms: number): Promise<Slot & { done: number }> {
  const c0 = cpuMs(pid);
  const t0 = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: conns }, async () => {
      while (performance.now() - t0 < ms) {
        await one(url);
        done++;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const c1 = cpuMs(pid);
  return { rps: done / secs, cpu: ((c1.all - c0.all) * 1000) / done, mainCpu: ((c1.main - c0.main) * 1000) / done, done };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  const i = (s.length - 1) * q;
  const lo = Math.floor(i);
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (i - lo);
};
const f = (n: number, d = 3) => n.toFixed(d);
const spread = (xs: number[]) =>
  `median ${f(quantile(xs, 0.5))} (quartiles ${f(quantile(xs, 0.25))}–${f(quantile(xs, 0.75))}, range ${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

const simPort = await freePort();
const simProc = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const sim = `http://127.0.0.1:${simPort}`;
await waitReady(`${sim}/_sim/state`);
const dir = scratchDir("svc-bench-reqlog-");
const configPath = `${dir}/config.json`;
writeFileSync(configPath, JSON.stringify({ keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, request_log: { enabled: true } }));
const port = await freePort();
const gw = Bun.spawn([BINARY], {
  cwd: dir,
  env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: configPath, SVC_CORE_BASE_URL: sim, LOG_LEVEL: "warn" },
  stdout: "ignore",
  stderr: "inherit",
});
const url = `http://127.0.0.1:${port}`;
await waitReady(`${url}/readyz`);

let current = true;
/** Switches the log by the config file and SIGHUP (the file as the gateway last wrote it: cached tokens kept). */
async function setLog(on: boolean): Promise<void> {
  if (AA) on = true;
  if (on === current) return;
  const config = JSON.parse(readFileSync(configPath, "utf8"));
  config.request_log = { ...config.request_log, enabled: on };
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  process.kill(gw.pid, "SIGHUP");
  current = on;
  // The reload is asynchronous: wait until rows stop (off) or start (on) arriving, with a few requests in between.
  for (let i = 0; i < 100; i++) {
    const w0 = await written(url);
    await Promise.all(Array.from({ length: 16 }, () => one(url)));
    await Bun.sleep(300);
    const grew = (await written(url)) > w0;
    if (grew === on) return;
  }
  throw new Error(`the request log did not turn ${on ? "on" : "off"} after SIGHUP`);
}

try {
  console.log(`load average at start: ${loadavg()}; ${AA ? "A/A (log on in both arms)" : "log on vs off"}, ${BLOCKS} ABBA blocks of ${MS} ms slots`);
  for (let warmed = 0; warmed < WARM; warmed += 64) await Promise.all(Array.from({ length: 64 }, () => one(url)));
  const ratios: Record<string, { rps: number[]; cpu: number[]; main: number[]; on: Slot[]; off: Slot[] }> = {};
  for (let b = 0; b < BLOCKS; b++) {
    for (const c of CONNS) {
      const order = b % 2 ? [false, true, true, false] : [true, false, false, true];
      const got: { on: Slot[]; off: Slot[] } = { on: [], off: [] };
      for (const arm of order) {
        await setLog(arm);
        const w0 = await written(url);
        const slot = await load(url, gw.pid, c, MS);
        await Bun.sleep(300);
        const rows = (await written(url)) - w0;
        // The switch took: every request of an "on" slot is a row (+ the few of the check), none of an "off" one.
        if (AA || arm ? rows < slot.done : rows > 0) throw new Error(`slot ${arm ? "on" : "off"}: ${rows} rows for ${slot.done} requests`);
        (arm ? got.on : got.off).push(slot);
      }
      const r = (ratios[c] ??= { rps: [], cpu: [], main: [], on: [], off: [] });
      const sum = (xs: Slot[], k: keyof Slot) => xs.reduce((a, x) => a + x[k], 0);
      r.rps.push(sum(got.on, "rps") / sum(got.off, "rps"));
      r.cpu.push(sum(got.on, "cpu") / sum(got.off, "cpu"));
      r.main.push(sum(got.on, "mainCpu") / sum(got.off, "mainCpu"));
      r.on.push(...got.on);
      r.off.push(...got.off);
      console.log(`block ${b + 1}, ${c} conns: req/s on/off ${f(r.rps.at(-1)!)}, CPU per request on/off ${f(r.cpu.at(-1)!)} (main thread ${f(r.main.at(-1)!)}); load ${loadavg()}`);
    }
  }
  for (const c of CONNS) {
    const r = ratios[c]!;
    const med = (xs: Slot[], k: keyof Slot) => quantile(xs.map((x) => x[k]), 0.5);
    console.log(`\nnon-stream, ${c} connections, ${r.rps.length} blocks:`);
    console.log(`  req/s on ${f(med(r.on, "rps"), 0)} / off ${f(med(r.off, "rps"), 0)} (slot medians); on/off ${spread(r.rps)}`);
    console.log(`  CPU per request, all threads: on ${f(med(r.on, "cpu"), 0)} µs / off ${f(med(r.off, "cpu"), 0)} µs; on/off ${spread(r.cpu)}`);
    console.log(`  CPU per request, main thread: on ${f(med(r.on, "mainCpu"), 0)} µs / off ${f(med(r.off, "mainCpu"), 0)} µs; on/off ${spread(r.main)}`);
  }
  console.log(`load average at end: ${loadavg()}`);
} finally {
  gw.kill();
  simProc.kill();
}
