// Memory while many answers stream at once (issue 17). bench/gateway.ts holds 1,000 streams that core keeps
// silent; here N answers of 3,000 tokens each arrive a token per write, as a slow core sends them. Read for each
// target while they stream: RSS over idle (peak, and 3 s after), and CPU seconds per core read (one token per
// read: the per-read cost that a burst, many tokens per read, hides). Targets: the compiled gateway; the same-calls
// proxy (bench/gateway-proxy.ts), which pipes core's bytes without reading them; the reading proxy, which makes the
// same calls and reads core's body in JavaScript, a read per event (the floor of any translating gateway).
//
//   bun run build && bun bench/active-streams.ts [--binary dist/svc-gateway] [--streams 300] [--only gateway]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { freePort, startGatewayProcess, startProxyProcess, waitReady } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const BINARY = resolve(flag("binary", "dist/svc-gateway"));
const N = Number(flag("streams", "300"));
const KEY = "sk-bench";
const ACCOUNTS = [{ email: "a@bench.test", password: "pw-a" }, { email: "b@bench.test", password: "pw-b" }];

const TOKENS = 3000;
const words = Array.from({ length: TOKENS }, (_, i) => `word${i}`).join(" ");
/** One answer, a word per write, 10 ms apart (core-upstream §12 script form). */
const SCRIPT = {
  name: "long-slow",
  defaults: { delay_ms: 10, chunk: "word" },
  rounds: [{ steps: [{ ready: {} }, { update_session: {} }, { snapshot: { answer: "Start" } }, { answer: ` ${words}` }, { status: "FINISHED" }, { finish: {} }, { close: {} }] }],
};

/** CPU seconds (user + system) the process used so far. */
const cpuSeconds = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

const simPort = await freePort();
const sim = Bun.spawn([BINARY, "sim", "--port", String(simPort), "--difficulty", "1000"], { stdout: "ignore", stderr: "inherit" });
const simUrl = `http://127.0.0.1:${simPort}`;
await waitReady(`${simUrl}/_sim/state`);

async function startGateway(): Promise<{ name: string; url: string; pid: number; stop(): void }> {
  const config = { keys: [KEY], accounts: ACCOUNTS, runtime: { account_max_inflight: 256, global_max_inflight: 1000, account_max_queue: 2000 } };
  const p = await startGatewayProcess(BINARY, simUrl, config);
  return { ...p, name: "gateway", url: `${p.url}/v1/chat/completions` };
}

async function startProxy(mode: "same-calls" | "reading"): Promise<{ name: string; url: string; pid: number; stop(): void }> {
  return { ...(await startProxyProcess(mode, simUrl, ACCOUNTS[0]!)), name: `${mode} proxy` };
}

const ask = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "write" }] }),
  });

try {
  const targets = { gateway: startGateway, "same-calls": () => startProxy("same-calls"), reading: () => startProxy("reading") };
  const only = flag("only", "");
  for (const [name, start] of Object.entries(targets)) {
    if (only && only !== name) continue;
    const t = await start();
    for (let i = 0; i < 20; i++) await (await ask(t.url)).text();
    await Bun.sleep(3000);
    const idle = rssMb(t.pid);
    await fetch(`${simUrl}/_sim/enqueue`, { method: "POST", body: JSON.stringify({ script: SCRIPT, times: N }) });
    const cpu0 = cpuSeconds(t.pid);
    let peak = 0;
    let bytes = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(t.pid) - idle)), 250);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: N }, async () => {
        const reader = (await ask(t.url)).body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
        }
      }),
    );
    clearInterval(sampler);
    const secs = (performance.now() - t0) / 1000;
    const cpuPerRead = ((cpuSeconds(t.pid) - cpu0) / (N * TOKENS)) * 1e6;
    await Bun.sleep(3000);
    console.log(
      `${N} answers of 3,000 tokens streaming at once, ${t.name}: ${(bytes / 1e6).toFixed(1)} MB to the clients in ${secs.toFixed(1)} s; ` +
        `RSS peak +${peak.toFixed(1)} MB over idle (${((peak * 1024) / N).toFixed(0)} KB per stream), 3 s after the last +${(rssMb(t.pid) - idle).toFixed(1)} MB; ` +
        `CPU ${cpuPerRead.toFixed(1)} µs per core token (a write each)`,
    );
    t.stop();
  }
} finally {
  sim.kill();
}
