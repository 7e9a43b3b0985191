// Where the gateway's CPU per non-stream request goes beyond the floor's (issue 35 target 3), measured inside the
// running gateway rather than in loops: the gateway from source, once per cut of its chat route (path-split/cuts.ts,
// preloaded), beside the floor reference in Elysia (bench/request-floor.ts) — each a process of its own against one
// simulator, warmed to a settled JIT, then blocks of non-stream requests in turns (the order reversed every other
// round), each block's CPU per request of the main thread and of all threads (/proc). The difference between two
// neighbouring rows is what the part between them costs in situ.
//
//   bun bench/path-split.ts [--warm 30000] [--blocks 7] [--block 4000] [--conns 64] [--cuts floor-answer,core-client,one-attempt,runner]
import { join, resolve } from "node:path";
import { readFileSync } from "node:fs";
import { loadChat, startGatewayProcess, startProxyProcess, startSourceSimulator, threadNs, type BenchProcess } from "./processes";
import { BENCH_ACCOUNTS, flag } from "./args";
import { CUTS } from "./path-split/cuts";

const WARM = Number(flag("warm", "30000"));
const BLOCKS = Number(flag("blocks", "7"));
const BLOCK = Number(flag("block", "4000"));
const CONNS = Number(flag("conns", "64"));
const cuts = flag("cuts", CUTS.join(",")).split(",").filter(Boolean);
const KEY = "sk-bench";
const ROOT = resolve(import.meta.dir, "..");
// The gateway's accounts; the floor and the first two cuts log in as the fourth (d) themselves.
const config = { keys: [KEY], accounts: BENCH_ACCOUNTS.slice(0, 3), runtime: { account_max_inflight: 250, account_max_queue: 2000 } };

const sim = await startSourceSimulator();
const rows: [string, BenchProcess][] = [["floor (Elysia, own process)", await startProxyProcess("floor-elysia", sim.url, BENCH_ACCOUNTS[1]!)]];
const fromSource = ["bun", "--preload", join(ROOT, "bench/path-split/preload.ts"), join(ROOT, "src/main.ts")];
for (const cut of [...cuts, "gateway"]) {
  const env = { BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", ...(cut === "gateway" ? {} : { SVC_BENCH_CUT: cut }) };
  rows.push([cut === "gateway" ? "the gateway" : `cut: ${cut}`, await startGatewayProcess(fromSource, sim.url, config, env)]);
}
try {
  for (const [, p] of rows) await loadChat(p.url, KEY, WARM, CONNS);
  const main = new Map<string, number[]>();
  const all = new Map<string, number[]>();
  for (let b = 0; b < BLOCKS; b++) {
    for (const [name, p] of b % 2 ? [...rows].reverse() : rows) {
      const before = threadNs(p.pid);
      await loadChat(p.url, KEY, BLOCK, CONNS);
      const after = threadNs(p.pid);
      let total = 0;
      for (const k of Object.keys(after)) total += after[k]! - (before[k] ?? 0);
      (main.get(name) ?? main.set(name, []).get(name)!).push((after.main! - before.main!) / 1000 / BLOCK);
      (all.get(name) ?? all.set(name, []).get(name)!).push(total / 1000 / BLOCK);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  console.log(`µs of CPU per request, medians of ${BLOCKS} blocks of ${BLOCK} at ${CONNS} conns after ${WARM} warm-up requests; load ${readFileSync("/proc/loadavg", "utf8").slice(0, 15)}`);
  console.log(`${"".padEnd(30)}${"main".padStart(8)}${"Δ main".padStart(9)}${"all".padStart(8)}   main by block`);
  let last: number | null = null;
  for (const [name] of rows) {
    const m = median(main.get(name)!);
    const delta = last === null ? "" : `${m - last >= 0 ? "+" : ""}${(m - last).toFixed(0)}`;
    console.log(`${name.padEnd(30)}${m.toFixed(0).padStart(8)}${delta.padStart(9)}${median(all.get(name)!).toFixed(0).padStart(8)}   ${main.get(name)!.map((x) => x.toFixed(0)).join(" ")}`);
    last = m;
  }
} finally {
  for (const [, p] of rows) p.stop();
  sim.stop();
}
