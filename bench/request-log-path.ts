// The request log's own cost on a request's path, in process (issue 31): what `Ops.requestEnded` costs with a
// file-backed request log against the same without one, per request, in CPU microseconds — the row made at the
// response's end, queued, and its share of the batched insert (flushed every 200 requests, as the 200 ms timer
// does at 1,000 req/s), WAL checkpoints and garbage collection included. Both arms do everything else alike (the
// metrics, the usage per key). Slots alternate in ABBA blocks and CPU time is the process's own, so other
// processes on a shared machine disturb it far less than they disturb bench/request-log.ts's req/s: the event
// loop's thread alone (/proc/self/task/<pid>/schedstat, what bounds req/s) and every thread (getrusage: the
// reader thread's WAL checkpoints included).
//
//   bun bench/request-log-path.ts [--src <a copy of src/, e.g. an older commit's>] [--blocks 12] [--n 4000]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { scratchDir } from "../tests/helpers/scratch";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const SRC = resolve(flag("src", join(import.meta.dir, "../src")));
const BLOCKS = Number(flag("blocks", "12"));
const N = Number(flag("n", "4000"));
const BATCH = 200;

const { Ops } = await import(join(SRC, "metering/ops.ts"));
const { RequestLog } = await import(join(SRC, "metering/request-log.ts"));
const { RequestState } = await import(join(SRC, "metering/request-state.ts"));
const { Timeline } = await import(join(SRC, "metering/timeline.ts"));
const { MemoryUsageStore } = await import(join(SRC, "metering/usage-store.ts"));

const KEY_FP = "caller:0123456789abcdef";
const config = Object.freeze({ api_keys: [{ key: "sk-bench", name: "bench" }], request_log: { enabled: true } });
const quiet = { warn() {}, info() {}, debug() {}, error() {}, log() {} };
const opsOpts = { version: "bench", config: () => config, now: () => Date.now(), pool: () => ({ inUse: 0, waiting: 0, available: 1, accounts: 1, cooldown: 0, loginFailing: 0 }) };
const on = new Ops(new MemoryUsageStore(), opsOpts);
on.requestLog = RequestLog.open({ path: join(scratchDir("svc-bench-reqlog-path-"), "requests.sqlite"), settings: () => ({ retentionDays: 7, maxRows: 200_000 }), log: quiet, now: () => Date.now() });
on.instance = "bench:1";
const off = new Ops(new MemoryUsageStore(), opsOpts);
const request = { method: "POST", headers: new Headers({ "user-agent": "bench/1.0", "content-type": "application/json" }) };

let seq = 0;
/** A non-stream chat request's state as the turn service leaves it: a managed key, an account, a full timeline. */
function state() {
  const s = new RequestState(`req_${(seq++).toString(16).padStart(24, "0")}`, "http://127.0.0.1/v1/chat/completions", "/v1/chat/completions", "", "chat");
  s.route = "/v1/chat/completions";
  s.model = s.resolvedModel = "core-v4-flash";
  s.mode = "managed";
  s.configuredKey = s.admittedKey = KEY_FP;
  s.account = "a@bench.test";
  s.clientIp = "127.0.0.1";
  s.historyId = `chat_${seq.toString(16).padStart(24, "0")}`;
  s.inputTokens = 12;
  s.outputTokens = 34;
  s.reasoningTokens = 0;
  const tl = new Timeline(s.start);
  tl.add("queue", 0.05, 0.1);
  tl.add("session", 0.2, 0.4);
  tl.add("pow", 0.4, 0.7);
  tl.coreFirstByte = 1.1;
  tl.firstToken = 1.3;
  tl.lastByte = 1.6;
  tl.attempts.accounts = 1;
  tl.attempts.core_attempts = 1;
  s.timeline = tl;
  return s;
}

const MAIN = `/proc/self/task/${process.pid}/schedstat`;
/** CPU µs so far: the event loop's thread, and every thread. */
const cpuUs = () => {
  const u = process.cpuUsage();
  return { main: Number(readFileSync(MAIN, "utf8").split(" ")[0]) / 1000, all: u.user + u.system };
};

/** CPU µs per request of N request ends on `ops` (each request's state made here too: the same in both arms). */
async function slot(ops: InstanceType<typeof Ops>): Promise<{ main: number; all: number }> {
  const c0 = cpuUs();
  for (let i = 0; i < N; i++) {
    ops.requestEnded(state(), 200, request);
    if (i % BATCH === BATCH - 1) ops.requestLog?.flushNow();
  }
  ops.requestLog?.flushNow();
  // Lets a checkpoint the batch asked the reader thread for finish inside the slot that caused it.
  await Bun.sleep(50);
  const c1 = cpuUs();
  return { main: (c1.main - c0.main) / N, all: (c1.all - c0.all) / N };
}

for (let i = 0; i < 3; i++) (await slot(on), await slot(off));
const deltas = { main: [] as number[], all: [] as number[] };
const offs: number[] = [];
for (let b = 0; b < BLOCKS; b++) {
  const order = b % 2 ? [off, on, on, off] : [on, off, off, on];
  const sum = { on: { main: 0, all: 0 }, off: { main: 0, all: 0 } };
  for (const ops of order) {
    const us = await slot(ops);
    const s = ops === on ? sum.on : sum.off;
    s.main += us.main;
    s.all += us.all;
  }
  deltas.main.push((sum.on.main - sum.off.main) / 2);
  deltas.all.push((sum.on.all - sum.off.all) / 2);
  offs.push(sum.off.main / 2);
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.round((xs.length - 1) * p)]!;
const f = (n: number) => n.toFixed(1);
const spread = (xs: number[]) => `median ${f(q(xs, 0.5))} µs (quartiles ${f(q(xs, 0.25))}–${f(q(xs, 0.75))}, range ${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
console.log(`src: ${SRC}; ${BLOCKS} ABBA blocks of ${N} request ends per slot; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
console.log(`request log's CPU per request (on − off), event loop's thread: ${spread(deltas.main)}`);
console.log(`request log's CPU per request (on − off), every thread:       ${spread(deltas.all)}`);
console.log(`the rest of requestEnded (off arm, the state's construction included): median ${f(q(offs, 0.5))} µs`);
on.requestLog?.close();
process.exit(0);
