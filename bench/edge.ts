// Non-stream requests per second through two gateway source trees in the same run (issue 18: the Elysia edge
// must not cost more than 5 % against the hand-written one). Each tree is started as `bun src/main.ts` in demo
// mode (the built-in simulator as core), then loaded in alternating rounds so drift on the machine hits both.
//
//   bun bench/edge.ts --baseline <ref> [--candidate HEAD] [--seconds 4] [--rounds 7] [--concurrency 16] [--log-level error]
//
// --log-level is the gateways' LOG_LEVEL (stdout goes nowhere either way): at error no access line is written;
// at info every request's line is built and written, as in a default deployment.
//
// Each round starts a fresh process per tree. Both the median and the best round are printed: on a shared
// machine the best round is the closer estimate of what the code can do, the median shows the spread.
//
// Both are `git archive <ref>` of this repository, extracted to temporary directories (so editing the work
// tree during a run changes nothing) and given this tree's node_modules (the baseline's dependencies are a
// subset). Figures go to docs/PERFORMANCE.md by hand.
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const SECONDS = Number(arg("seconds", "4"));
const ROUNDS = Number(arg("rounds", "7"));
const CONCURRENCY = Number(arg("concurrency", "16"));
const BASELINE = arg("baseline", "main");
const CANDIDATE = arg("candidate", "HEAD");
const LOG_LEVEL = arg("log-level", "error");

async function extract(ref: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "svc-gw-baseline-"));
  const tar = Bun.spawn(["sh", "-c", `git -C '${ROOT}' archive '${ref}' | tar -x -C '${dir}'`], { stderr: "inherit" });
  if ((await tar.exited) !== 0) throw new Error(`git archive ${ref} failed`);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

interface Gateway {
  url: string;
  stop(): Promise<void>;
}

async function start(tree: string): Promise<Gateway> {
  const dir = mkdtempSync(join(tmpdir(), "svc-gw-bench-"));
  writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: ["sk-bench"] }));
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  const proc = Bun.spawn(["bun", join(tree, "src/main.ts"), "demo"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(port), SVC_HOST: "127.0.0.1", SVC_ADMIN_KEY: "bench-admin", SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL },
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  for (let i = 0; i < 400 && !ready; i++) {
    try {
      ready = (await fetch(`${url}/readyz`)).ok;
    } catch {}
    if (!ready) await Bun.sleep(50);
  }
  if (!ready) throw new Error(`${tree} did not become ready on port ${port}`);
  return {
    url,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

const H = { Authorization: "Bearer demo-key", "Content-Type": "application/json" };
/** The demo pool serves few calls at once; more chat clients would only measure 429 queue_full answers. */
const CLIENTS: Record<string, number> = { count_tokens: CONCURRENCY, chat: 2 };
const WORKLOADS: Record<string, (url: string) => [string, RequestInit]> = {
  // Edge only: auth, body parse, validation, normalisation, a local estimate; core is not called.
  count_tokens: (url) => [`${url}/v1/messages/count_tokens`, { method: "POST", headers: H, body: JSON.stringify({ model: "claude-sonnet-4-5", messages: [{ role: "user", content: "How many tokens is this?" }] }) }],
  // The whole path: a non-stream chat completion answered by the built-in simulator.
  chat: (url) => [`${url}/v1/chat/completions`, { method: "POST", headers: H, body: JSON.stringify({ model: "core-v4-flash", messages: [{ role: "user", content: "Say hi." }] }) }],
};

async function load(url: string, workload: string, seconds: number): Promise<{ rps: number; errors: Record<number, number> }> {
  const make = WORKLOADS[workload]!;
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const errors: Record<number, number> = {};
  await Promise.all(
    Array.from({ length: CLIENTS[workload] ?? CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const [u, init] = make(url);
        const r = await fetch(u, init);
        await r.arrayBuffer();
        if (r.status === 200) done++;
        else errors[r.status] = (errors[r.status] ?? 0) + 1;
      }
    }),
  );
  return { rps: done / seconds, errors };
}

const trees: [string, string][] = [
  [`baseline (${BASELINE})`, await extract(BASELINE)],
  [`candidate (${CANDIDATE})`, await extract(CANDIDATE)],
];
console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, ${CONCURRENCY} clients, ${ROUNDS} rounds × ${SECONDS} s per workload and tree, LOG_LEVEL=${LOG_LEVEL}`);
for (const workload of Object.keys(WORKLOADS)) {
  const totals = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which tree goes first, so a warming or cooling machine favours neither.
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    for (const [name, tree] of order) {
      const gw = await start(tree);
      await load(gw.url, workload, 1); // warm-up: JIT, first logins to the simulator
      const r = await load(gw.url, workload, SECONDS);
      await gw.stop();
      if (Object.keys(r.errors).length) console.log(`  ${workload} ${name}: non-200 answers ${JSON.stringify(r.errors)}`);
      totals.set(name, [...(totals.get(name) ?? []), r.rps]);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const best = (xs: number[]) => Math.max(...xs);
  const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
  const base = totals.get(trees[0]![0])!;
  const mine = totals.get(trees[1]![0])!;
  console.log(
    `${workload} (${CLIENTS[workload] ?? CONCURRENCY} clients): median baseline ${median(base).toFixed(0)} / candidate ${median(mine).toFixed(0)} req/s (${pct(median(mine), median(base))}); ` +
      `best ${best(base).toFixed(0)} / ${best(mine).toFixed(0)} req/s (${pct(best(mine), best(base))}); rounds ${JSON.stringify(Object.fromEntries([...totals].map(([k, v]) => [k, v.map((x) => Math.round(x))])))}`,
  );
}
