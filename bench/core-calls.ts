// CPU per call to core by client path (issue 35 target 3, branch core-cpu): the ordinary JSON call as the
// same-calls proxy makes it (`(await fetch()).json()`), as the gateway made it before (coreFetch: the body read
// as an ArrayBuffer, wrapped in a second Response, then text and JSON.parse), and as coreCall makes it now over
// fetch and over the socket client; and a completion-like stream read to its end through fetch, coreFetch over
// fetch and coreFetch over the socket client. The server is a child process (its CPU is not counted); this
// process's CPU (every thread: Bun's HTTP client thread included) is read from /proc around each block.
//
//   bun bench/core-calls.ts [--calls 4000] [--conns 16] [--rounds 5] [--only json|stream]
import { coreCall, coreFetch } from "../src/core/http";
import { WIRE_DEFAULTS } from "../src/core/wire";
import { readFileSync } from "node:fs";
import { cpuMs, freePort, waitReady } from "./processes";

/** The main thread's CPU in ms (the thread that runs JavaScript; fetch's HTTP client thread is another). */
const mainMs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);

if (argv[0] === "serve") {
  const json = JSON.stringify({ code: 0, msg: "", data: { biz_code: 0, biz_msg: "", biz_data: { id: "4f1c2a52-8a57-4c40-9d0e-1f3f0c9a2b11", challenge: { algorithm: "CoreHashV1", salt: "abcdef0123456789", difficulty: 1000, expire_at: 1_900_000_000, signature: "x".repeat(64), target_path: "/api/v0/chat/completion" } } } });
  const sse = 'data: {"v":{"response":{"message_id":2,"status":"WIP"}}}\n\n' + 'data: {"p":"response/content","o":"APPEND","v":"hello"}\n\n'.repeat(20) + 'data: {"p":"response/status","o":"SET","v":"FINISHED"}\n\nevent: close\ndata: {}\n\n';
  Bun.serve({
    port: Number(argv[1]),
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      await req.text();
      if (new URL(req.url).pathname === "/stream") return new Response(sse, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
      return new Response(json, { headers: { "Content-Type": "application/json" } });
    },
  });
  console.log("ready");
  await new Promise(() => {});
}

const CALLS = Number(flag("calls", "4000"));
const CONNS = Number(flag("conns", "16"));
const ROUNDS = Number(flag("rounds", "5"));
const port = await freePort();
const server = Bun.spawn(["bun", import.meta.path, "serve", String(port)], { stdout: "ignore", stderr: "inherit" });
const base = `http://127.0.0.1:${port}`;
await waitReady(base);
const token = "tok-0123456789abcdef0123456789abcdef";
const body = { target_path: "/api/v0/chat/completion" };
const wireFetch = { ...WIRE_DEFAULTS, call_client: "fetch" as string, stream_client: "fetch" as string };
const wireSocket = { ...WIRE_DEFAULTS, call_client: "socket" as string, stream_client: "socket" as string };
const signal = new AbortController().signal;

const modes: Record<string, () => Promise<unknown>> = {
  "json: proxy's fetch().json()": async () =>
    (await (await fetch(`${base}/api/v0/chat/create_pow_challenge`, { method: "POST", headers: { "Content-Type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()) as unknown,
  "json: coreFetch + text + parse (before)": async () => {
    const res = await coreFetch(wireFetch, base, { method: "POST", path: "/api/v0/chat/create_pow_challenge", token, json: body, signal });
    return JSON.parse(await res.text());
  },
  "json: coreCall over fetch": async () => JSON.parse((await coreCall(wireFetch, base, { method: "POST", path: "/api/v0/chat/create_pow_challenge", token, json: body, signal })).text),
  "json: coreCall over socket": async () => JSON.parse((await coreCall(wireSocket, base, { method: "POST", path: "/api/v0/chat/create_pow_challenge", token, json: body, signal })).text),
  "stream: proxy's fetch().text()": async () => (await fetch(`${base}/stream`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).text(),
  "stream: coreFetch over fetch, reader": async () => drain(await coreFetch(wireFetch, base, { method: "POST", path: "/stream", token, body: "{}", controller: new AbortController(), timeoutMs: 0 })),
  "stream: coreFetch over socket, reader": async () => drain(await coreFetch(wireSocket, base, { method: "POST", path: "/stream", token, body: "{}", controller: new AbortController(), timeoutMs: 0 })),
};

async function drain(res: Response): Promise<number> {
  const reader = res.body!.getReader();
  let n = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) return n;
    n += r.value.length;
  }
}

async function block(fn: () => Promise<unknown>, calls: number): Promise<{ cpuUs: number; mainUs: number }> {
  let left = calls;
  const m0 = mainMs();
  const c0 = cpuMs(process.pid);
  await Promise.all(
    Array.from({ length: CONNS }, async () => {
      while (left-- > 0) await fn();
    }),
  );
  return { cpuUs: ((cpuMs(process.pid) - c0) * 1000) / calls, mainUs: ((mainMs() - m0) * 1000) / calls };
}

// `--only json` (or `stream`) runs one kind alone: a process that also runs the other kind's client code measured
// the socket client's JSON calls higher (its connection class then serves both the collect and stream modes).
const names = Object.keys(modes).filter((n) => n.startsWith(flag("only", "")));
const results = new Map<string, number[]>(names.map((n) => [n, []]));
const mains = new Map<string, number[]>(names.map((n) => [n, []]));
for (let i = 0; i < 2; i++) for (const n of names) await block(modes[n]!, CALLS); // warm-up: JIT, connection pools
for (let r = 0; r < ROUNDS; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]!);
  for (const n of order) {
    const b = await block(modes[n]!, CALLS);
    results.get(n)!.push(b.cpuUs);
    mains.get(n)!.push(b.mainUs);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`CPU µs per call: all threads, main thread; ${CALLS} calls × ${ROUNDS} rounds, ${CONNS} concurrent; median [min–max]`);
const fmt = (xs: number[]) => `${median(xs).toFixed(1).padStart(6)} [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]`;
for (const n of names) console.log(`${n.padEnd(40)} ${fmt(results.get(n)!).padEnd(20)} ${fmt(mains.get(n)!)}`);
server.kill();
process.exit(0);
