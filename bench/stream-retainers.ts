// Which objects a silent open stream holds, by name (issue 35): the gateway from source in this process, the
// simulator and the clients in processes of their own (so their objects stay out of the counts), N streamed chat
// completions that core keeps silent, then a v8-format heap snapshot after a full collection. Nodes are counted by
// type and name (a closure by its function's name, an object by its class) against a snapshot at idle, per stream.
//
//   bun bench/stream-retainers.ts [--streams 200] [--top 60] [--retainers] [--strings-by-type] [--config '{"upstream":{"stream_client":"socket"}}']
import { heapStats } from "bun:jsc";
import { makeTestApp } from "../tests/helpers/app";
import { startSourceSimulator } from "./processes";
import { benchConfig, flag, hasFlag } from "./args";

// Under 256: Bun's fetch keeps at most 256 requests in flight unless BUN_CONFIG_MAX_HTTP_REQUESTS is raised.
const STREAMS = Number(flag("streams", "200"));
const TOP = Number(flag("top", "60"));
/** Also count each node by its first retainer (type:name.edge): where the objects hang. */
const RETAINERS = hasFlag("retainers");
/** Count strings by type only (not by their text), so a stream's strings add up by what holds them. */
const STRINGS_BY_TYPE = hasFlag("strings-by-type");
const extra = JSON.parse(flag("config", "{}")) as Record<string, Record<string, unknown>>;
const KEY = "sk-bench";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Node counts by type:name; with RETAINERS, also each node by the first retainer's type:name and edge name. */
function countByName(): Map<string, number> {
  Bun.gc(true);
  const snap = JSON.parse(Bun.generateHeapSnapshot("v8") as unknown as string) as Snapshot;
  const meta = snap.snapshot.meta;
  const fields = meta.node_fields;
  const types = meta.node_types[0];
  const width = fields.length;
  const ti = fields.indexOf("type");
  const ni = fields.indexOf("name");
  const ci = fields.indexOf("edge_count");
  const out = new Map<string, number>();
  const label = (n: number) => {
    const type = types[snap.nodes[n + ti]!]!;
    return STRINGS_BY_TYPE && type.includes("string") ? `${type}:*` : `${type}:${snap.strings[snap.nodes[n + ni]!]}`;
  };
  for (let i = 0; i < snap.nodes.length; i += width) {
    const key = label(i);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  if (RETAINERS) {
    const ew = meta.edge_fields.length;
    const eti = meta.edge_fields.indexOf("type");
    const eni = meta.edge_fields.indexOf("name_or_index");
    const eto = meta.edge_fields.indexOf("to_node");
    const etypes = meta.edge_types[0];
    const seen = new Set<number>();
    let e = 0;
    for (let i = 0; i < snap.nodes.length; i += width) {
      const count = snap.nodes[i + ci]!;
      for (let k = 0; k < count; k++, e += ew) {
        const to = snap.edges[e + eto]!;
        if (seen.has(to)) continue;
        const kind = etypes[snap.edges[e + eti]!];
        if (kind === "weak") continue;
        const nameIdx = snap.edges[e + eni]!;
        const edge = kind === "element" || kind === "hidden" ? `[${kind}]` : snap.strings[nameIdx];
        const key = `  ${label(to)} <- ${label(i)}.${edge}`;
        seen.add(to);
        out.set(key, (out.get(key) ?? 0) + 1);
      }
    }
  }
  return out;
}

const sim = await startSourceSimulator();
const simUrl = sim.url;
const config = benchConfig(KEY, { upstream: { stream_idle_timeout_ms: 120_000 } }, extra);
const t = await makeTestApp({ config, env: { SVC_CORE_BASE_URL: simUrl }, logLevel: "error" });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => t.app.handle(r) });
const port = server.port!;
try {
  for (let i = 0; i < 30; i++) {
    const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: "POST", headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" }, body: JSON.stringify({ model: "core-v4-flash", stream: i % 2 === 0, messages: [{ role: "user", content: `warm ${i}` }] }) });
    await r.text();
  }
  await Bun.sleep(2500);
  const idle = countByName();
  Bun.gc(true);
  const idleStats = heapStats();
  // The clients: a child process opening the streams and holding them until told to stop (stdin closes).
  const client = Bun.spawn(["bun", "-e", clientScript(port, STREAMS)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = client.stdout.getReader();
  let said = "";
  while (!said.includes("open")) {
    const r = await reader.read();
    if (r.done) throw new Error(`client ended: ${said}`);
    said += new TextDecoder().decode(r.value);
  }
  console.log(`client: ${said.trim()}`);
  await Bun.sleep(1000);
  const held = countByName();
  Bun.gc(true);
  const heldStats = heapStats();
  client.stdin.end();
  client.kill();
  console.log(`${STREAMS} streams, config ${JSON.stringify(extra)}: ${((heldStats.objectCount - idleStats.objectCount) / STREAMS).toFixed(1)} objects per stream (heapStats), heap +${((heldStats.heapSize - idleStats.heapSize) / 1024 / STREAMS).toFixed(1)} KB per stream`);
  const types = Object.keys({ ...idleStats.objectTypeCounts, ...heldStats.objectTypeCounts })
    .map((k) => [k, ((heldStats.objectTypeCounts[k] ?? 0) - (idleStats.objectTypeCounts[k] ?? 0)) / STREAMS] as const)
    .filter(([, v]) => Math.abs(v) >= 0.5)
    .sort((a, b) => b[1] - a[1]);
  console.log(`  by type: ${types.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", ")}`);
  const rows = [...new Set([...idle.keys(), ...held.keys()])]
    .map((k) => [k, ((held.get(k) ?? 0) - (idle.get(k) ?? 0)) / STREAMS] as const)
    .filter(([, v]) => v >= 0.5)
    .sort((a, b) => b[1] - a[1]);
  console.log(`  snapshot nodes per stream, by type:name (${rows.reduce((a, [, v]) => a + v, 0).toFixed(0)} in all):`);
  for (const [k, v] of rows.slice(0, TOP)) console.log(`    ${v.toFixed(1).padStart(6)}  ${k}`);
} finally {
  server.stop(true);
  sim.stop();
}
process.exit(0);

function clientScript(port: number, n: number): string {
  return `
const net = require("node:net");
const body = JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "[[sim:stall ms=60000]] hold" }] });
const req = "POST /v1/chat/completions HTTP/1.1\\r\\nHost: 127.0.0.1:${port}\\r\\nAuthorization: Bearer ${KEY}\\r\\nContent-Type: application/json\\r\\nContent-Length: " + Buffer.byteLength(body) + "\\r\\n\\r\\n" + body;
let answered = 0;
const socks = [];
for (let i = 0; i < ${n}; i++) {
  const s = net.connect(${port}, "127.0.0.1", () => s.write(req));
  let got = "";
  s.on("data", (d) => { if (got !== null) { got += d; if (got.includes("data: {")) { got = null; if (++answered === ${n}) console.log("open " + answered); } } });
  s.on("error", () => {});
  socks.push(s);
}
setTimeout(() => { console.log("open " + answered + " (timeout)"); }, 30000);
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;
}
