// The least a silent open stream can cost on this runtime (issue 35 target 2): what a middle process of a few
// lines holds per stream when it does no more than a gateway must — take a client's streamed request, open core's
// stream, send the client what core sent — measured like the gateway, so that the gateway's own share is the
// difference. Each middle runs in its own process between a stand-in core (answers one SSE event, then stays
// silent) and raw client sockets (in this process):
//   bare       core's body handed to the client's response natively (fetch, no JavaScript read): the bare proxy;
//   fetch-read core's body read in JavaScript from fetch and re-sent through a JavaScript ReadableStream;
//   socket     core's request written on a Bun.connect socket, its bytes re-sent through a JavaScript ReadableStream;
//   socket+2   the same after two short JSON calls through fetch first (the gateway's session and PoW challenge);
//   socket-direct  core's bytes on a socket written by its data callback into a direct stream (type "direct"): no
//              JavaScript ReadableStream machinery, no pull per chunk.
// RSS over idle, read inside the middle after a full collection (and once before it, on the first wave): the first
// wave of N streams on a fresh process, then, after those closed, a second wave ("after warm-up").
//
// --survivors N / --garbage N (socket modes): each stream also keeps N small objects for its life, and its set-up
// allocates N small objects that it drops at once — to tell what a gateway's per-stream state costs from what its
// per-stream set-up's garbage costs (PERFORMANCE.md, seventh wave).
//
//   bun bench/stream-floor.ts [--streams 1000] [--only socket] [--survivors 0] [--garbage 0]
import { freePort, waitReady } from "./processes";

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : fallback);
const MODES = ["bare", "fetch-read", "socket", "socket+2", "socket-direct"] as const;
type Mode = (typeof MODES)[number];
const encoder = new TextEncoder();

/** The stand-in core: every request gets SSE headers and one event, then nothing. */
function serveCore(port: number): void {
  Bun.serve({
    port,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/short"
        ? Response.json({ data: { biz_data: { id: crypto.randomUUID() } } })
        : new Response(new ReadableStream({ start: (c) => c.enqueue(encoder.encode('data: {"v":"hi"}\n\n')) }), { headers: { "content-type": "text/event-stream" } }),
  });
}

function rss(collect: boolean): Response {
  if (collect) Bun.gc(true);
  return new Response(String(process.memoryUsage.rss()));
}

/** Core's bytes on a socket of our own, re-sent through a JavaScript stream (what src/core/http1 does, bare). */
async function socketBody(core: number): Promise<ReadableStream<Uint8Array>> {
  let out!: ReadableStreamDefaultController<Uint8Array>;
  // The stream's own state: kept by its cancel (as long as the stream lives).
  const kept = SURVIVORS > 0 ? objects(SURVIVORS) : null;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (out = c), cancel: () => void kept?.length }, { highWaterMark: 0 });
  if (GARBAGE > 0) dropped += objects(GARBAGE).length;
  await Bun.connect({
    hostname: "127.0.0.1",
    port: core,
    socket: {
      open: (s) => void s.write("POST /c HTTP/1.1\r\nHost: core\r\nContent-Length: 2\r\n\r\n{}"),
      data: (_s, bytes) => out.enqueue(bytes),
      close: () => {
        try {
          out.close();
        } catch {}
      },
    },
  });
  return body;
}

const SURVIVORS = Number(process.env.FLOOR_SURVIVORS ?? 0);
const GARBAGE = Number(process.env.FLOOR_GARBAGE ?? 0);
let dropped = 0;

/** N small objects of a few sizes, as a gateway's per-stream state and set-up make (records, arrays, strings). */
function objects(n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(i % 3 === 0 ? { a: i, b: dropped } : i % 3 === 1 ? [i, i + 1] : { a: i, b: i, c: i, d: `k${i}` });
  return out;
}

/** As socketBody, into a direct stream: the socket's data callback writes to the response's sink itself. */
function socketDirect(core: number): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    type: "direct",
    pull: (out: { write(b: Uint8Array): unknown; flush(): unknown }) =>
      new Promise<void>((ended) => {
        void Bun.connect({
          hostname: "127.0.0.1",
          port: core,
          socket: {
            open: (s) => void s.write("POST /c HTTP/1.1\r\nHost: core\r\nContent-Length: 2\r\n\r\n{}"),
            data: (_s, bytes) => {
              out.write(bytes);
              out.flush();
            },
            close: () => ended(),
          },
        });
      }),
  } as unknown as UnderlyingDefaultSource<Uint8Array>);
}

function serveMiddle(mode: Mode, port: number, core: number): void {
  const sse = { "content-type": "text/event-stream" };
  Bun.serve({
    port,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/rss") return rss(false);
      if (path === "/rss-collected") return rss(true);
      if (mode === "bare") return new Response((await fetch(`http://127.0.0.1:${core}/c`, { method: "POST", body: "{}" })).body, { headers: sse });
      if (mode === "fetch-read") {
        const reader = (await fetch(`http://127.0.0.1:${core}/c`, { method: "POST", body: "{}" })).body!.getReader();
        const body = new ReadableStream<Uint8Array>(
          {
            async pull(c) {
              const r = await reader.read();
              if (r.done) c.close();
              else c.enqueue(r.value);
            },
            cancel: (why) => reader.cancel(why),
          },
          { highWaterMark: 0 },
        );
        return new Response(body, { headers: sse });
      }
      if (mode === "socket-direct") return new Response(socketDirect(core), { headers: sse });
      if (mode === "socket+2") for (let i = 0; i < 2; i++) await (await fetch(`http://127.0.0.1:${core}/short`, { method: "POST", body: '{"a":1}' })).json();
      return new Response(await socketBody(core), { headers: sse });
    },
  });
}

/** N raw client connections, each one streamed request; resolves once every one has its first bytes. */
async function wave(port: number, n: number): Promise<Bun.Socket<{ answered: boolean }>[]> {
  const sockets: Bun.Socket<{ answered: boolean }>[] = [];
  let answered = 0;
  await new Promise<void>((done) => {
    for (let i = 0; i < n; i++)
      void Bun.connect<{ answered: boolean }>({
        hostname: "127.0.0.1",
        port,
        data: { answered: false },
        socket: {
          open(s) {
            sockets.push(s);
            s.write(`GET /s HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          },
          data(s) {
            if (s.data.answered) return;
            s.data.answered = true;
            if (++answered === n) done();
          },
        },
      });
  });
  return sockets;
}

async function measure(mode: Mode, core: number, n: number): Promise<string> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, import.meta.path, "--role", "middle", mode, String(port), String(core)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", FLOOR_SURVIVORS: flag("survivors", "0"), FLOOR_GARBAGE: flag("garbage", "0") },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitReady(`http://127.0.0.1:${port}/rss`);
    const mb = async (path: string) => Number(await (await fetch(`http://127.0.0.1:${port}${path}`)).text()) / 1048576;
    const idle = await mb("/rss-collected");
    const first = await wave(port, n);
    await Bun.sleep(1000);
    const firstRaw = await mb("/rss");
    const firstCollected = await mb("/rss-collected");
    for (const s of first) s.end();
    await Bun.sleep(1500);
    const idle2 = await mb("/rss-collected");
    const second = await wave(port, n);
    await Bun.sleep(1000);
    const secondCollected = await mb("/rss-collected");
    for (const s of second) s.end();
    const kb = (mbs: number) => `+${mbs.toFixed(1)} MB (${((mbs * 1024) / n).toFixed(1)} KB)`;
    return `${mode.padEnd(11)} first wave ${kb(firstRaw - idle)}, collected ${kb(firstCollected - idle)}; after warm-up, collected ${kb(secondCollected - idle2)}; idle ${idle.toFixed(1)} → ${idle2.toFixed(1)} MB`;
  } finally {
    proc.kill();
    await proc.exited;
  }
}

const role = flag("role", "");
if (role === "core") serveCore(Number(argv[argv.indexOf("core") + 1]));
else if (role === "middle") {
  const i = argv.indexOf("middle");
  serveMiddle(argv[i + 1] as Mode, Number(argv[i + 2]), Number(argv[i + 3]));
} else {
  const n = Number(flag("streams", "1000"));
  const only = flag("only", "");
  const corePort = await freePort();
  const core = Bun.spawn([process.execPath, import.meta.path, "--role", "core", String(corePort)], { stdout: "ignore", stderr: "inherit" });
  try {
    await waitReady(`http://127.0.0.1:${corePort}/short`);
    console.log(`${n} silent streams per wave; load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
    for (const mode of MODES) if (!only || only === mode) console.log(await measure(mode, corePort, n));
  } finally {
    core.kill();
  }
}
