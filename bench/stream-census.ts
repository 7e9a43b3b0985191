// What a silent open stream holds, by type (issue 35): the compiled gateway (SVC_HEAP_CENSUS_FILE set) against
// the simulator, 30 warm-up requests, a heap census at idle (SIGUSR2: a full collection, bun:jsc heapStats), 1,000
// concurrent streams core keeps silent, a second census; printed per stream, largest differences first. Each
// --config JSON (merged into the gateway's config) is one target, measured in turns with the others.
// --waves N: after the first wave closes, N−1 more waves of the same streams on the same process, each against a
// census taken after the one before it closed ("after warm-up"), with the heap's size, its blocks (capacity) and
// the memory its cells own outside it (extra), and what the closed wave left in RSS.
// --prompt-bytes N: each stream's user message padded to N characters (agents send prompts of tens of KB).
//
//   bun run build && bun bench/stream-census.ts [--binary dist/svc-gateway] [--streams 1000] [--rounds 2] [--waves 1] [--prompt-bytes 0]
//     [--config '{"upstream":{"stream_client":"fetch"}}' --config '{}']
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openRaw, type RawConnection } from "../tests/helpers/raw-http";
import { scratchDir } from "../tests/helpers/scratch";
import { freePort, waitReady } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const STREAMS = Number(flag("streams", "1000"));
const ROUNDS = Number(flag("rounds", "2"));
const WAVES = Number(flag("waves", "1"));
const PROMPT_BYTES = Number(flag("prompt-bytes", "0"));
const configs = argv.flatMap((a, i) => (a === "--config" ? [argv[i + 1]!] : []));
if (!configs.length) configs.push('{"upstream":{"stream_client":"fetch"}}', "{}");
const ACCOUNTS = ["a", "b", "c", "d"].map((x) => ({ email: `${x}@bench.test`, password: `pw-${x}` }));
const KEY = "sk-bench";

interface Census {
  rss_bytes: number;
  heap_size: number;
  heap_capacity: number;
  extra_memory: number;
  object_count: number;
  types: Record<string, number>;
}

async function census(pid: number, file: string): Promise<Census> {
  writeFileSync(file, "");
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 400; i++) {
    await Bun.sleep(50);
    const text = readFileSync(file, "utf8");
    if (text) return JSON.parse(text) as Census;
  }
  throw new Error("no census");
}

async function measure(simUrl: string, extra: string): Promise<{ kbPerStream: number; heapKbPerStream: number; objectsPerStream: number; types: [string, number][]; open: number; openMs: number }> {
  const dir = scratchDir("svc-census-");
  const config = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 250, account_max_queue: 2000 }, upstream: { stream_idle_timeout_ms: 120_000 } };
  const merged = JSON.parse(extra) as Record<string, Record<string, unknown>>;
  for (const [k, v] of Object.entries(merged)) (config as Record<string, unknown>)[k] = { ...((config as Record<string, unknown>)[k] as object), ...v };
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  const port = await freePort();
  const file = join(dir, "census.json");
  const proc = Bun.spawn([BINARY], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), SVC_CORE_BASE_URL: simUrl, SVC_HEAP_CENSUS_FILE: file },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/readyz`);
    for (let i = 0; i < 30; i++) {
      const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify({ model: "core-v4-flash", stream: i % 2 === 0, messages: [{ role: "user", content: `warm ${i}` }] }) });
      await r.text();
    }
    await Bun.sleep(2500);
    const idle = await census(proc.pid, file);
    const body = JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: `[[sim:stall ms=60000]] hold${" lorem ipsum".repeat(Math.ceil(PROMPT_BYTES / 12)).slice(0, PROMPT_BYTES)}` }] });
    const openWave = async () => {
      const conns: RawConnection[] = [];
      const t0 = performance.now();
      for (let i = 0; i < STREAMS; i++) {
        const c = await openRaw(port);
        c.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        conns.push(c);
      }
      const answered = () => conns.filter((c) => c.received().includes("data: {")).length;
      while (answered() < STREAMS && performance.now() - t0 < 30_000) await Bun.sleep(50);
      const openMs = performance.now() - t0;
      await Bun.sleep(1000);
      return { conns, openMs, open: answered() };
    };
    const perStream = (b: Census, a: Census, k: "rss_bytes" | "heap_size" | "heap_capacity" | "extra_memory") => ((b[k] - a[k]) / 1024 / STREAMS).toFixed(1);
    const { conns, openMs, open } = await openWave();
    const held = await census(proc.pid, file);
    let before = held;
    let closing = conns;
    for (let w = 2; w <= WAVES; w++) {
      for (const c of closing) c.destroy();
      await Bun.sleep(5000);
      const idleAgain = await census(proc.pid, file);
      const next = await openWave();
      const heldAgain = await census(proc.pid, file);
      console.log(
        `  wave ${w}: ${next.open} open after ${(next.openMs / 1000).toFixed(1)} s; the wave before left RSS +${perStream(idleAgain, idle, "rss_bytes")} KB per stream over the first idle; ` +
          `this wave, per stream: RSS +${perStream(heldAgain, idleAgain, "rss_bytes")} KB, heap size +${perStream(heldAgain, idleAgain, "heap_size")} KB, ` +
          `capacity +${perStream(heldAgain, idleAgain, "heap_capacity")} KB, extra +${perStream(heldAgain, idleAgain, "extra_memory")} KB, ${((heldAgain.object_count - idleAgain.object_count) / STREAMS).toFixed(0)} objects`,
      );
      before = heldAgain;
      closing = next.conns;
    }
    for (const c of closing) c.destroy();
    if (WAVES > 1) console.log(`  wave 1, per stream: heap capacity +${perStream(held, idle, "heap_capacity")} KB, extra +${perStream(held, idle, "extra_memory")} KB (last census RSS ${(before.rss_bytes / 1048576).toFixed(1)} MB)`);
    const types = Object.keys({ ...idle.types, ...held.types })
      .map((k) => [k, ((held.types[k] ?? 0) - (idle.types[k] ?? 0)) / STREAMS] as [string, number])
      .filter(([, v]) => Math.abs(v) >= 0.5)
      .sort((a, b) => b[1] - a[1]);
    return { kbPerStream: (held.rss_bytes - idle.rss_bytes) / 1024 / STREAMS, heapKbPerStream: (held.heap_size - idle.heap_size) / 1024 / STREAMS, objectsPerStream: (held.object_count - idle.object_count) / STREAMS, types, open, openMs };
  } finally {
    proc.kill();
  }
}

const simPort = await freePort();
const sim = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const simUrl = `http://127.0.0.1:${simPort}`;
await waitReady(`${simUrl}/_sim/state`);
console.log(`load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}; ${STREAMS} streams; binary ${BINARY}`);
try {
  for (let r = 0; r < ROUNDS; r++)
    for (const extra of r % 2 ? [...configs].reverse() : configs) {
      const m = await measure(simUrl, extra);
      console.log(`round ${r + 1} config ${extra}: ${m.open} open after ${(m.openMs / 1000).toFixed(1)} s; after a full collection RSS +${m.kbPerStream.toFixed(1)} KB, JS heap +${m.heapKbPerStream.toFixed(1)} KB and ${m.objectsPerStream.toFixed(0)} objects per stream`);
      console.log(`  ${m.types.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`);
    }
} finally {
  sim.kill();
}
