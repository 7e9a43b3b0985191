// The latency a user feels that the gateway adds (issue 35): time to the first token of a streamed answer through
// the compiled gateway, minus core's own (a client asking core's completion directly, its session and PoW made
// beforehand, untimed), at 1, 16 and 64 concurrent clients; and the time requests waited for an account slot, from
// the gateway's own svc_gateway_queue_wait_seconds histogram. The same-calls proxy (bench/gateway-proxy.ts: session,
// PoW, completion, bytes piped) shows what any gateway making core's calls pays; the gateway's own share is the
// rest. Targets take turns within a level and the order flips each round, so a slow stretch of this shared machine
// falls on all alike; medians over the rounds. The core simulator runs in its own process (the binary's `sim`).
//
//   bun run build && bun bench/felt-latency.ts [--binary dist/svc-gateway] [--rounds 3] [--levels 1,16,64]
import { resolve } from "node:path";
import { RawCore } from "../tests/helpers/sim";
import { freePort, startGatewayProcess, startProxyProcess, waitReady } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const ROUNDS = Number(flag("rounds", "3"));
const LEVELS = flag("levels", "1,16,64").split(",").map(Number);
const KEY = "sk-bench";
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
/** A visible token: the first `"content":"` with a character after it (not `reasoning_content`, not an empty role chunk). */
const TOKEN = /"content":"[^"]/;

const simPort = await freePort();
const sim = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const simUrl = `http://127.0.0.1:${simPort}`;
await waitReady(`${simUrl}/_sim/state`);

/** ms from `start` until the body carries a token, then read to the end. */
async function firstToken(res: Response, start: number): Promise<number> {
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let seen = "";
  let at = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(at)) {
      // Keep a tail so a token split across reads is still found.
      seen = seen.slice(-32) + dec.decode(value, { stream: true });
      if (TOKEN.test(seen)) at = performance.now() - start;
    }
  }
  if (Number.isNaN(at)) throw new Error("no token in the answer");
  return at;
}

const cores = await Promise.all(
  ACCOUNTS.map(async (a) => {
    const raw = new RawCore(simUrl);
    await raw.loginAs(a);
    return raw;
  }),
);
let turn = 0;
/** Core's own time to first token: session and PoW beforehand, untimed. */
async function coreTtft(i: number): Promise<number> {
  const raw = cores[turn++ % cores.length]!;
  const [session, pow] = await Promise.all([raw.session(), raw.pow()]);
  const start = performance.now();
  return firstToken(await raw.completion(session, `hello ${i}`, { pow }), start);
}

const chat = (url: string, i: number) =>
  fetch(url, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: `hello ${i}` }] }) });

const gw = await startGatewayProcess(BINARY, simUrl, { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 64, account_max_queue: 2000 } });
const proxy = await startProxyProcess("same-calls", simUrl, ACCOUNTS[0]!);
const gwUrl = `${gw.url}/v1/chat/completions`;

/** The gateway's queue-wait histogram: seconds summed and requests counted, every outcome. */
async function queueWait(): Promise<{ sum: number; count: number }> {
  const text = await (await fetch(`${gw.url}/metrics`, { headers: { Authorization: "Bearer bench-admin" } })).text();
  let sum = 0;
  let count = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith("svc_gateway_queue_wait_seconds_sum")) sum += Number(line.split(" ").pop());
    else if (line.startsWith("svc_gateway_queue_wait_seconds_count")) count += Number(line.split(" ").pop());
  }
  return { sum, count };
}

/** `n` requests over `c` concurrent clients: every request's time to first token. */
async function level(c: number, n: number, ask: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < n) out.push(await ask(next++));
    }),
  );
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))]! : NaN;
};
const median = (xs: number[]) => pct(xs, 0.5);
const f = (n: number, d = 1) => n.toFixed(d);

type Name = "core" | "same-calls" | "gateway";
const asks: Record<Name, (i: number) => Promise<number>> = {
  core: coreTtft,
  "same-calls": (i) => {
    const start = performance.now();
    return chat(`${proxy.url}/v1/chat/completions`, i).then((r) => firstToken(r, start));
  },
  gateway: (i) => {
    const start = performance.now();
    return chat(gwUrl, i).then((r) => firstToken(r, start));
  },
};

try {
  // Warm-up: logins, PoW workers, the JIT.
  for (const name of Object.keys(asks) as Name[]) await level(8, 200, asks[name]);
  const rows: string[] = [];
  for (const c of LEVELS) {
    const n = Math.max(60, 4 * c);
    const per: Record<string, number[]> = {};
    const add = (k: string, v: number) => (per[k] ??= []).push(v);
    for (let r = 0; r < ROUNDS; r++) {
      const order: Name[] = r % 2 ? ["gateway", "same-calls", "core"] : ["core", "same-calls", "gateway"];
      for (const name of order) {
        const q0 = name === "gateway" ? await queueWait() : null;
        const t = await level(c, n, asks[name]);
        add(`${name} p50`, median(t));
        add(`${name} p90`, pct(t, 0.9));
        if (q0) {
          const q1 = await queueWait();
          add("queue mean", ((q1.sum - q0.sum) * 1000) / Math.max(1, q1.count - q0.count));
        }
      }
      add("added p50", per["gateway p50"]!.at(-1)! - per["core p50"]!.at(-1)!);
      add("own p50", per["gateway p50"]!.at(-1)! - per["same-calls p50"]!.at(-1)!);
    }
    const m = (k: string) => median(per[k]!);
    rows.push(
      `| ${c} | ${f(m("core p50"))} / ${f(m("core p90"))} | ${f(m("same-calls p50"))} / ${f(m("same-calls p90"))} | ${f(m("gateway p50"))} / ${f(m("gateway p90"))} | +${f(m("added p50"))} | ${m("own p50") >= 0 ? "+" : ""}${f(m("own p50"))} | ${f(m("queue mean"), 2)} |`,
    );
    console.log(rows.at(-1));
  }
  console.log(`\ntime to first token (ms, p50 / p90), ${ROUNDS} rounds, medians; load avg ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
  console.log("| clients | core direct | same-calls proxy | gateway | gateway − core (p50) | gateway − same-calls (p50) | queue wait, mean ms |");
  console.log("|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) console.log(r);
} finally {
  gw.stop();
  proxy.stop();
  sim.kill();
}
