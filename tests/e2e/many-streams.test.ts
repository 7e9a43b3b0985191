// Issue 17 item 6: Bun parks outgoing fetches beyond BUN_CONFIG_MAX_HTTP_REQUESTS (256 by default) without a
// byte or an error, so the 257th open stream used to hang although the pool had admitted it. The compiled binary
// lifts the cap at start-up; here 1,000 streams stay open at once (core stalls mid-answer) and every one of them
// must receive its first answer bytes. The client side uses raw sockets: this test process's own fetch has the
// same cap, and would measure itself instead of the gateway.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startBinary, type RunningBinary } from "../helpers/binary";
import { openRaw, type RawConnection } from "../helpers/raw-http";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

const STREAMS = 1000;
/**
 * This process holds two sockets per stream (the client's and the simulator's end) and the gateway two more: a
 * machine whose hard file limit is below that cannot run the test at all (Bun raises the soft limit itself).
 */
function hardFileLimit(): number {
  const out = Bun.spawnSync(["sh", "-c", "ulimit -Hn"]).stdout.toString().trim();
  return out === "unlimited" ? Infinity : Number(out) || 0;
}
const ENOUGH_FILES = hardFileLimit() >= 4 * STREAMS + 512;
if (!ENOUGH_FILES) console.warn(`[skip] tests/e2e/many-streams.test.ts: the hard open-file limit (${hardFileLimit()}) is below ${4 * STREAMS + 512}; raise it (ulimit -Hn)`);
const ACCOUNTS = [
  { email: "a@many.test", password: "pw-a" },
  { email: "b@many.test", password: "pw-b" },
  { email: "c@many.test", password: "pw-c" },
  { email: "d@many.test", password: "pw-d" },
];

let sim: CoreSimulator;
let gw: RunningBinary;

beforeAll(async () => {
  // The real clock: the virtual one steps per event, and 1,000 streams' events would age the PoW challenges.
  sim = await startCoreSimulator({ difficulty: 1000, accounts: ACCOUNTS, clock: "real" });
  gw = await startBinary({
    config: {
      keys: ["sk-many"],
      accounts: ACCOUNTS,
      runtime: { account_max_inflight: STREAMS / ACCOUNTS.length, account_max_queue: STREAMS },
      upstream: { stream_idle_timeout_ms: 120_000 },
    },
    env: { SVC_CORE_BASE_URL: sim.url },
  });
}, 120_000);

afterAll(async () => {
  await gw?.stop();
  await sim?.stop();
});

function streamRequest(): string {
  // Half the answer, then core stays silent far longer than the test: every stream is open at the same time.
  const body = JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "[[sim:stall ms=60000]] hello" }] });
  return [
    "POST /v1/chat/completions HTTP/1.1",
    "Host: 127.0.0.1",
    "Authorization: Bearer sk-many",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "",
    body,
  ].join("\r\n");
}

async function queueStatus(): Promise<{ in_use: number; waiting: number }> {
  const r = await fetch(`${gw.url}/admin/queue/status`, { headers: { Authorization: `Bearer ${gw.adminKey}` } });
  return (await r.json()) as { in_use: number; waiting: number };
}

test.skipIf(!ENOUGH_FILES)(
  "1,000 concurrent streams through the binary all receive answer bytes, and leaving frees every slot",
  async () => {
    const conns: RawConnection[] = [];
    try {
      for (let i = 0; i < STREAMS; i++) {
        const c = await openRaw(gw.port);
        c.write(streamRequest());
        conns.push(c);
      }
      // The defect was a stall, not slowness: wait generously (speed is bench/gateway.ts's business).
      const deadline = Date.now() + 60_000;
      const answered = () => conns.filter((c) => c.received().includes("data: {")).length;
      while (answered() < STREAMS && Date.now() < deadline) await Bun.sleep(100);
      expect(answered()).toBe(STREAMS);
      expect(conns.every((c) => c.received().startsWith("HTTP/1.1 200"))).toBe(true);
      expect((await queueStatus()).in_use).toBe(STREAMS);
    } finally {
      for (const c of conns) c.destroy();
    }
    let status = await queueStatus();
    for (let i = 0; i < 300 && (status.in_use > 0 || status.waiting > 0); i++) {
      await Bun.sleep(100);
      status = await queueStatus();
    }
    expect(status).toMatchObject({ in_use: 0, waiting: 0 });
  },
  180_000,
);
