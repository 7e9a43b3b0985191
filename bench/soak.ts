// Soak (issue 15): the compiled gateway against the simulator, N requests over five surfaces, a third of the clients
// leaving at random moments, a tenth of core's answers faulty (empty, HTTP 500, a reset mid-answer, a hang past the
// idle timeout). Afterwards nothing may be left held: in_use 0, waiting 0, no account in cooldown (no login failed),
// no 5xx logged for a client that left, and the gateway's RSS back within 20 MB of where it started.
// With --rounds N (issue 30 item 12) the same load runs N times in one gateway process; RSS after the last
// round's drain must be within 10 MB of the first round's, and a heap census (object counts by type, taken
// through SIGUSR2 and SVC_HEAP_CENSUS_FILE, src/metering/heap-census.ts) after each round shows what grew.
//
//   bun bench/soak.ts [--requests 2000] [--rounds 1] [--concurrency 60] [--seed 7] [--binary dist/svc-gateway]
//                     [--stream-client socket|fetch]   (upstream.stream_client; the binary's default without it)
//
// Exit status 0 when every check holds; the last line is a one-line verdict.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startCoreSimulator } from "../src/sim/index";

interface Options {
  requests: number;
  rounds: number;
  concurrency: number;
  seed: number;
  binary: string;
  streamClient: string;
}

function parseArgs(argv: string[]): Options {
  const get = (name: string, fallback: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
  };
  return {
    requests: Number(get("requests", "2000")),
    rounds: Math.max(1, Number(get("rounds", "1"))),
    concurrency: Number(get("concurrency", "60")),
    seed: Number(get("seed", "7")),
    binary: resolve(get("binary", "dist/svc-gateway")),
    streamClient: get("stream-client", ""),
  };
}

/** Small seeded PRNG (mulberry32): a failing soak can be replayed with the same --seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Diagnosis only (the gate runs the defaults): which part of the load leaves what behind (PERFORMANCE.md,
 *  "The socket client and the soak gate"). */
const FAULT_RATE = Number(process.env.SOAK_FAULT_RATE ?? 0.1);
const LEAVE_RATE = Number(process.env.SOAK_LEAVE_RATE ?? 1 / 3);

const KEY = "sk-soak";
const ACCOUNTS = [
  { email: "a@soak.test", password: "pw-a" },
  { email: "b@soak.test", password: "pw-b" },
  { email: "c@soak.test", password: "pw-c" },
];
const SURFACES = ["chat", "responses", "messages", "generate", "generate-stream"] as const;
type Surface = (typeof SURFACES)[number];
const FAULTS = ["[[sim:empty-output]]", "[[sim:http-error status=500 times=3 tag=%]]", "[[sim:eof-mid-answer]]", "[[sim:stall ms=2500]]"];

function request(base: string, surface: Surface, prompt: string, stream: boolean): [string, RequestInit] {
  const json = (body: unknown, headers: Record<string, string>): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const bearer = { Authorization: `Bearer ${KEY}` };
  switch (surface) {
    case "chat":
      return [`${base}/v1/chat/completions`, json({ model: "core-v4-flash", stream, messages: [{ role: "user", content: prompt }] }, bearer)];
    case "responses":
      return [`${base}/v1/responses`, json({ model: "core-v4-flash", stream, input: prompt }, bearer)];
    case "messages":
      return [`${base}/msgapi/v1/messages`, json({ model: "core-v4-flash", max_tokens: 256, stream, messages: [{ role: "user", content: prompt }] }, { "x-api-key": KEY, "anthropic-version": "2023-06-01" })];
    case "generate":
      return [`${base}/v1beta/models/core-v4-flash:generateContent`, json({ contents: [{ role: "user", parts: [{ text: prompt }] }] }, { "x-goog-api-key": KEY })];
    case "generate-stream":
      return [`${base}/v1beta/models/core-v4-flash:streamGenerateContent?alt=sse`, json({ contents: [{ role: "user", parts: [{ text: prompt }] }] }, { "x-goog-api-key": KEY })];
  }
}

/** MIMALLOC_* and BUN_* variables reach the gateway (memory experiments). */
function extraEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([k, v]) => /^(MIMALLOC_|BUN_)/.test(k) && v !== undefined)) as Record<string, string>;
}

/** RSS split (anonymous / file pages) and open descriptors: what a round left outside the JS heap. */
function memLine(pid: number): string {
  const st = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(st)?.[1] ?? 0);
  let fds = 0;
  try {
    fds = readdirSync(`/proc/${pid}/fd`).length;
  } catch {}
  return `anon ${(kb("RssAnon") / 1024).toFixed(1)} MB, peak ${(kb("VmHWM") / 1024).toFixed(1)} MB, file ${(kb("RssFile") / 1024).toFixed(1)} MB, fds ${fds}`;
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) : 0;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export async function soak(opts: Options): Promise<{ ok: boolean; report: string[] }> {
  const random = rng(opts.seed);
  const sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS, clock: "real" });
  const dir = mkdtempSync(join(tmpdir(), "svc-gw-soak-"));
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      keys: [KEY],
      accounts: ACCOUNTS,
      runtime: { account_max_inflight: 8, account_max_queue: 10_000, queue_wait_seconds: 120 },
      upstream: { stream_idle_timeout_ms: 1000, ...(opts.streamClient ? { stream_client: opts.streamClient } : {}) },
      // Stored responses are kept by design (15 min, up to 10,000): the smallest store fills in the first round,
      // so what it holds is the same after every round and growth between rounds is growth per request.
      responses: { store_max_entries: 100 },
    }),
  );
  const port = await freePort();
  const censusFile = join(dir, "heap-census.json");
  const adminKey = "soak-admin-key";
  const proc = Bun.spawn([opts.binary], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: dir,
      PORT: String(port),
      SVC_HOST: "127.0.0.1",
      SVC_ADMIN_KEY: adminKey,
      SVC_CONFIG_PATH: join(dir, "config.json"),
      SVC_CORE_BASE_URL: sim.url,
      SVC_HEAP_CENSUS_FILE: censusFile,
      LOG_LEVEL: "info",
      ...extraEnv(),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const logText = new Response(proc.stdout).text();
  const errText = new Response(proc.stderr).text();
  const base = `http://127.0.0.1:${port}`;
  const report: string[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      await Bun.sleep(50);
    }
    const admin = { Authorization: `Bearer ${adminKey}` };
    const queue = async () => (await (await fetch(`${base}/admin/queue/status`, { headers: admin })).json()) as { in_use: number; waiting: number; cooldown_accounts: string[] };
    // Warm up before the RSS baseline: logins, the PoW workers' heaps and the JIT's compiled code are one-time
    // costs that a few requests do not reach; 200 requests at concurrency 20 over every surface do. A leak still
    // shows as growth from this baseline to the end.
    await Promise.all(
      Array.from({ length: 20 }, async (_, w) => {
        for (let i = w; i < 200; i += 20) {
          const s = SURFACES[i % SURFACES.length]!;
          await (await fetch(...request(base, s, `[[sim:words n=40]] warm up ${i}`, s !== "generate" && i % 2 === 0))).text();
        }
      }),
    );
    // The admin part (app.ts) is built on the first /admin request, another one-time cost: the rounds read the
    // queue through it, so it is built before the baseline too.
    await queue();
    await Bun.sleep(4000);
    const rssStart = rssKb(proc.pid);
    console.log(`start: RSS ${Math.round(rssStart / 1024)} MB (${memLine(proc.pid)})`);
    const census = async (): Promise<Census | null> => {
      rmSync(censusFile, { force: true });
      proc.kill("SIGUSR2");
      for (let i = 0; i < 200 && !existsSync(censusFile); i++) await Bun.sleep(50);
      return existsSync(censusFile) ? (JSON.parse(readFileSync(censusFile, "utf8")) as Census) : null;
    };

    // Diagnosis only (SOAK_START_CENSUS=1): its full collection before round 1 is not part of the gate's run.
    const startCensus = process.env.SOAK_START_CENSUS ? await census() : null;
    if (startCensus) console.log(`start census: heap ${(startCensus.heap_size / 1048576).toFixed(1)} MB, capacity / extra / array buffers ${[startCensus.heap_capacity, startCensus.extra_memory, startCensus.array_buffers].map((n) => (n === undefined ? "?" : (n / 1048576).toFixed(1))).join(" / ")} MB`);

    const outcomes = new Map<string, number>();
    const count = (k: string) => outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    let next = 0;
    const one = async (i: number) => {
      const surface = SURFACES[i % SURFACES.length]!;
      const stream = surface === "generate-stream" || (surface !== "generate" && random() < 0.5);
      const faulty = random() < FAULT_RATE;
      const prompt = faulty ? `${FAULTS[Math.floor(random() * FAULTS.length)]!.replace("%", String(i))} soak ${i}` : `[[sim:slow-tokens first_token_ms=${Math.floor(random() * 400)} delay_ms=${5 + Math.floor(random() * 15)}]] soak ${i} ${"word ".repeat(20 + Math.floor(random() * 60))}`;
      const aborts = random() < LEAVE_RATE;
      const ac = new AbortController();
      const timer = aborts ? setTimeout(() => ac.abort(), Math.floor(random() * 1500)) : undefined;
      try {
        const [url, init] = request(base, surface, prompt, stream);
        const r = await fetch(url, { ...init, signal: ac.signal });
        await r.text();
        count(`${faulty ? "faulty" : "plain"} ${r.status}`);
      } catch {
        count(aborts ? "client left" : "client error");
      } finally {
        clearTimeout(timer);
      }
    };
    const rounds: { rss: number; q: Awaited<ReturnType<typeof queue>>; census: Census | null }[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      const end = (round + 1) * opts.requests;
      const workers = Array.from({ length: opts.concurrency }, async () => {
        for (;;) {
          const i = next++;
          if (i >= end) return;
          await one(i);
        }
      });
      await Promise.all(workers);

      // Detached clean-up (session deletes) may still run for a moment.
      let q = await queue();
      for (let i = 0; i < 100 && (q.in_use !== 0 || q.waiting !== 0); i++) {
        await Bun.sleep(100);
        q = await queue();
      }
      // The gateway collects its heap once it has been quiet for 2 s (src/util/idle-gc.ts).
      await Bun.sleep(4000);
      const rss = rssKb(proc.pid);
      rounds.push({ rss, q, census: await census() });
      // Sockets the JS heap still holds (the socket client's pooled connections; fetch's live in its own thread).
      const types = rounds[round]!.census?.types ?? {};
      const sockets = Object.entries(types).filter(([t]) => /Socket|ReadableStream$/.test(t)).map(([t, n]) => `${t} ${n}`).join(", ");
      if (sockets) console.log(`round ${round + 1}: ${sockets}`);
      console.log(`round ${round + 1}: RSS ${Math.round(rss / 1024)} MB, heap objects ${rounds[round]!.census?.object_count ?? "?"} (${memLine(proc.pid)})`);
    }
    const q = rounds[rounds.length - 1]!.q;
    const rssEnd = rounds[0]!.rss;
    const rssLast = rounds[rounds.length - 1]!.rss;
    proc.kill("SIGTERM");
    await proc.exited;
    const lines = (await logText).split("\n").filter(Boolean).map((l) => { try { return JSON.parse(l) as Record<string, unknown>; } catch { return {}; } });
    const requests = lines.filter((l) => l.msg === "request" && typeof l.path === "string" && !String(l.path).startsWith("/admin") && l.path !== "/readyz" && l.path !== "/healthz");
    const aborted5xx = requests.filter((l) => l.aborted === true && (l.status as number) >= 500);
    const unhandled = lines.filter((l) => l.msg === "unhandled error" || l.msg === "core attempt failed unexpectedly");

    const checks: [string, boolean, string][] = [
      ["in_use 0 after every round", rounds.every((r) => r.q.in_use === 0), rounds.map((r) => r.q.in_use).join(",")],
      ["waiting 0 after every round", rounds.every((r) => r.q.waiting === 0), rounds.map((r) => r.q.waiting).join(",")],
      ["no account in cooldown", q.cooldown_accounts.length === 0, q.cooldown_accounts.join(",")],
      ["no 5xx logged for a client that left", aborted5xx.length === 0, String(aborted5xx.length)],
      ["no unhandled error", unhandled.length === 0, String(unhandled.length)],
      ["every request logged", requests.length >= opts.requests * opts.rounds, `${requests.length}/${opts.requests * opts.rounds}`],
      ["RSS back within 20 MB", rssEnd - rssStart <= 20 * 1024, `${Math.round(rssStart / 1024)} MB → ${Math.round(rssEnd / 1024)} MB`],
    ];
    if (opts.rounds > 1)
      checks.push([
        `RSS after round ${opts.rounds} within 10 MB of round 1`,
        rssLast - rssEnd <= 10 * 1024,
        rounds.map((r) => `${(r.rss / 1024).toFixed(1)}`).join(" → ") + " MB",
      ]);
    report.push(...censusReport(rounds.map((r) => r.census)));
    report.push(`outcomes: ${[...outcomes].sort().map(([k, v]) => `${k}: ${v}`).join(", ")}`);
    for (const [name, ok, value] of checks) report.push(`${ok ? "ok  " : "FAIL"} ${name} (${value})`);
    const ok = checks.every((c) => c[1]);
    if (!ok) report.push(`gateway stderr: ${(await errText).slice(-2000)}`);
    return { ok, report };
  } finally {
    if (proc.exitCode === null) proc.kill("SIGKILL");
    await sim.stop();
  }
}

interface Census {
  rss_bytes: number;
  heap_size: number;
  object_count: number;
  heap_capacity?: number;
  extra_memory?: number;
  array_buffers?: number;
  types: Record<string, number>;
}

/** The heap after each round, and the object types that grew most from the first round to the last. */
function censusReport(census: (Census | null)[]): string[] {
  if (census.some((c) => c === null)) return ["heap census: not available (no SIGUSR2 answer)"];
  const all = census as Census[];
  const mb = (n: number | undefined) => (n === undefined ? "?" : (n / 1048576).toFixed(1));
  const out = [
    `heap census by round: ${all.map((c) => `${mb(c.heap_size)} MB / ${c.object_count} objects`).join(" → ")}`,
    `heap capacity / extra / array buffers by round: ${all.map((c) => `${mb(c.heap_capacity)} / ${mb(c.extra_memory)} / ${mb(c.array_buffers)} MB`).join(" → ")}`,
  ];
  if (all.length < 2) return out;
  const first = all[0]!.types;
  const last = all[all.length - 1]!.types;
  const growth = Object.keys({ ...first, ...last })
    .map((t) => [t, (last[t] ?? 0) - (first[t] ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 12);
  out.push(`heap census, round 1 → ${all.length} (largest changes): ${growth.map(([t, d]) => `${t} ${d > 0 ? "+" : ""}${d}`).join(", ") || "none"}`);
  return out;
}

if (import.meta.main) {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const { ok, report } = await soak(opts);
  for (const line of report) console.log(line);
  console.log(`soak ${ok ? "passed" : "FAILED"}: ${opts.rounds} × ${opts.requests} requests, concurrency ${opts.concurrency}, seed ${opts.seed}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(ok ? 0 : 1);
}
