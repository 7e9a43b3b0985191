// Issue 33: docs/deployment.md's nginx recipe, taken from the document itself, with a real nginx (Debian's
// package) in front of the compiled binary: forwarded client addresses (and a client's made-up ones ignored),
// a stream passed on while core is still silent, a 100 MB upload, and the lockout an internet client could turn
// against the admin. nginx runs in the foreground as this user (master_process off) on a free loopback port,
// with every path under a temporary prefix.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join, resolve } from "node:path";
import { buildBinary, freePort } from "../helpers/binary";
import { scratchDir } from "../helpers/scratch";
import { requireTool } from "../helpers/require-tool";
import { startCoreSimulator, type CoreSimulator } from "../../src/sim/index";

const ROOT = resolve(import.meta.dir, "../..");
const NGINX = Bun.which("nginx") ?? (Bun.file("/usr/sbin/nginx").size > 0 ? "/usr/sbin/nginx" : null);
const HAVE_NGINX = requireTool(import.meta.path, "nginx", NGINX !== null, "nginx is not installed (apt-get install -y nginx, or .ci/install-ops.sh)");
const ADMIN_KEY = "nginx-admin-key";
const KEY = "sk-nginx";
const ACCOUNT = { email: "a@sim.test", password: "pw-a" };

let sim: CoreSimulator;
let gateway: ReturnType<typeof Bun.spawn>;
let nginx: ReturnType<typeof Bun.spawn>;
let gwPort: number;
let port: number;
let logs = "";

/** The recipe's server block from docs/deployment.md, made local: plain HTTP on our port, our gateway. */
export function localRecipe(markdown: string, listenPort: number, gatewayPort: number): string {
  const section = markdown.split(/^## A reverse proxy in front$/m)[1] ?? "";
  const block = /^```nginx\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block) throw new Error("docs/deployment.md has no nginx block under 'A reverse proxy in front'");
  const once = (text: string, re: RegExp, by: string) => {
    const n = text.match(new RegExp(re.source, "gm"))?.length ?? 0;
    if (n !== 1) throw new Error(`the recipe changed: ${re} matched ${n} times`);
    return text.replace(new RegExp(re.source, "m"), by);
  };
  let conf = once(block, /^\s*listen 443 ssl http2;$/, `    listen 127.0.0.1:${listenPort};`);
  conf = once(conf, /^\s*ssl_certificate .*$/, "");
  conf = once(conf, /^\s*ssl_certificate_key .*$/, "");
  conf = once(conf, /proxy_pass http:\/\/127\.0\.0\.1:5001;/, `proxy_pass http://127.0.0.1:${gatewayPort};`);
  return conf;
}

function nginxConf(prefix: string, server: string): string {
  const p = (name: string) => join(prefix, name);
  return `daemon off;
master_process off;
worker_processes 1;
pid ${p("nginx.pid")};
error_log ${p("error.log")} warn;
events { worker_connections 256; }
http {
  access_log ${p("access.log")};
  client_body_temp_path ${p("client_body")};
  proxy_temp_path ${p("proxy")};
  fastcgi_temp_path ${p("fastcgi")};
  uwsgi_temp_path ${p("uwsgi")};
  scgi_temp_path ${p("scgi")};
${server}
}
`;
}

async function waitFor(url: string, proc: ReturnType<typeof Bun.spawn>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (proc.exitCode !== null) break;
    await Bun.sleep(50);
  }
  throw new Error(`${what} did not start (exit ${proc.exitCode}): ${logs.slice(-2000)}`);
}

interface Answer {
  status: number;
  body: string;
}

/** One request to nginx from a chosen loopback source address (each stands for one internet client). */
function call(from: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        localAddress: from,
        agent: false,
        headers: { ...(opts.body ? { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(opts.body)) } : {}), ...(opts.headers ?? {}) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** The gateway's request log lines for a path. */
function requestLines(path: string): Record<string, any>[] {
  return logs
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === "request" && l.path === path);
}

describe.skipIf(!HAVE_NGINX)("docs/deployment.md's nginx recipe in front of the binary", () => {
  beforeAll(async () => {
    const binary = await buildBinary();
    sim = await startCoreSimulator({ difficulty: 1000, accounts: [ACCOUNT] });
    const dir = scratchDir("svc-nginx-gw-");
    writeFileSync(join(dir, "config.json"), JSON.stringify({ keys: [KEY], accounts: [ACCOUNT] }));
    gwPort = await freePort();
    // As deployment.md says: loopback only, nginx (127.0.0.1) trusted.
    gateway = Bun.spawn([binary], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? "", HOME: dir, PORT: String(gwPort), SVC_HOST: "127.0.0.1", SVC_TRUSTED_PROXIES: "127.0.0.1", SVC_ADMIN_KEY: ADMIN_KEY, SVC_CORE_BASE_URL: sim.url, SVC_CONFIG_PATH: join(dir, "config.json"), LOG_LEVEL: "info" },
      stdout: "pipe",
      stderr: "pipe",
    });
    void (async () => {
      const reader = (gateway.stdout as ReadableStream<Uint8Array>).getReader();
      const dec = new TextDecoder();
      for (let c = await reader.read(); !c.done; c = await reader.read()) logs += dec.decode(c.value, { stream: true });
    })();
    await waitFor(`http://127.0.0.1:${gwPort}/readyz`, gateway, "the gateway");

    const prefix = scratchDir("svc-nginx-");
    for (const d of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(prefix, d));
    port = await freePort();
    const conf = join(prefix, "nginx.conf");
    writeFileSync(conf, nginxConf(prefix, localRecipe(readFileSync(join(ROOT, "docs/deployment.md"), "utf8"), port, gwPort)));
    nginx = Bun.spawn([NGINX!, "-p", prefix, "-c", conf, "-e", join(prefix, "error.log")], { stdout: "ignore", stderr: "pipe" });
    await waitFor(`http://127.0.0.1:${port}/healthz`, nginx, "nginx");
  }, 180_000);

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await nginx?.exited;
    gateway?.kill("SIGTERM");
    await gateway?.exited;
    await sim?.stop();
  }, 30_000);

  test("the client is the address nginx saw, whatever forwarding headers the client made up", async () => {
    const lie = { "X-Forwarded-For": "203.0.113.9", Forwarded: "for=198.51.100.1", "X-Real-IP": "192.0.2.1" };
    const r = await call("127.0.0.5", "GET", "/v1/models?probe=forwarded", { headers: { Authorization: `Bearer ${KEY}`, ...lie } });
    expect(r.status).toBe(200);
    const r2 = await call("127.0.0.6", "GET", "/v1/models?probe=forwarded", { headers: { Authorization: `Bearer ${KEY}` } });
    expect(r2.status).toBe(200);
    for (let i = 0; i < 100 && requestLines("/v1/models?probe=forwarded").length < 2; i++) await Bun.sleep(20);
    expect(requestLines("/v1/models?probe=forwarded").map((l) => l.client_ip)).toEqual(["127.0.0.5", "127.0.0.6"]);
  });

  test("a stream is passed on while core is still silent (no buffering)", async () => {
    const FIRST = "nginx-first-part";
    // Core answers its first words, then is silent for a minute before the rest.
    sim.enqueue({
      script: {
        name: "nginx-unbuffered",
        shape: "newer",
        rounds: [{ steps: [{ ready: {} }, { update_session: {} }, { snapshot: {} }, { answer: FIRST }, { sleep: 60_000 }, { answer: " rest" }, { usage: {} }, { status: "FINISHED" }, { close: {} }] }],
      },
    } as never);
    const ac = new AbortController();
    const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify({ model: "core-v4-flash", stream: true, messages: [{ role: "user", content: "stream through nginx" }] }),
      signal: ac.signal,
    });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const dec = new TextDecoder();
    let seen = "";
    // Bounded by the test's timeout (30 s), half of core's silence: a buffering proxy holds the words until it ends.
    while (!seen.includes(FIRST)) {
      const c = await reader.read();
      if (c.done) break;
      seen += dec.decode(c.value, { stream: true });
    }
    expect(seen).toContain(FIRST);
    expect(seen).not.toContain("[DONE]");
    ac.abort();
  }, 30_000);

  test("a 100 MB file upload passes nginx and reaches core", async () => {
    const size = 100_000_000;
    const form = new FormData();
    form.append("purpose", "assistants");
    form.append("file", new Blob([new Uint8Array(size).fill(0x61)], { type: "text/plain" }), "big.txt");
    const r = await fetch(`http://127.0.0.1:${port}/v1/files`, { method: "POST", headers: { Authorization: `Bearer ${KEY}` }, body: form });
    const text = await r.text();
    expect({ status: r.status, text: text.slice(0, 300) }).toEqual({ status: 200, text: text.slice(0, 300) });
    expect(JSON.parse(text).bytes).toBe(size);
  }, 120_000);

  test("10 wrong admin keys from one client lock that client only; the admin elsewhere signs in", async () => {
    const attacker = "127.0.0.7";
    const admin = "127.0.0.8";
    for (let i = 0; i < 10; i++) expect((await call(attacker, "GET", "/admin/settings", { headers: { Authorization: `Bearer wrong-${i}` } })).status).toBe(401);
    const locked = await call(attacker, "GET", "/admin/settings", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } });
    expect(locked.status).toBe(429);
    // Changing its forwarded address does not help the attacker: nginx appends the real one.
    expect((await call(attacker, "GET", "/admin/settings", { headers: { Authorization: `Bearer ${ADMIN_KEY}`, "X-Forwarded-For": "198.51.100.99" } })).status).toBe(429);
    expect((await call(admin, "GET", "/admin/settings", { headers: { Authorization: `Bearer ${ADMIN_KEY}` } })).status).toBe(200);
    const login = await call(admin, "POST", "/admin/login", { body: JSON.stringify({ admin_key: ADMIN_KEY }) });
    expect(login.status).toBe(200);
    expect(JSON.parse(login.body).token).toBeTruthy();
    expect(logs).toContain('"client_ip":"127.0.0.7"');
  });
});
