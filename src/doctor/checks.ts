// `svc-gateway doctor` and GET /admin/doctor (issue 32): what stands between this gateway and a working answer,
// checked one layer at a time — config and data directory, core's DNS, TCP, TLS and login path, the clock, each
// proxy, each account's login (through its proxy), Redis when configured. Never starts a completion; never
// stores a token it obtains. Each row says what to do when it is not ok.
import { lookup } from "node:dns/promises";
import { randomBytes } from "node:crypto";
import { mkdirSync, statfsSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import net from "node:net";
import tls from "node:tls";
import type { Account, Config } from "../config/schema";
import { accountIdentifier } from "../config/identity";
import { effectiveUpstream } from "../config/effective";
import { CoreClient } from "../core/client";
import { PATHS } from "../core/wire";
import type { ProxySpec } from "../core/proxy-spec";
import { classifyFailure } from "../accounts/health-classes";
import { testProxy } from "../surfaces/admin/proxy-test";
import { storeSettings, redactRedisUrl } from "../shared-state/settings";
import { ACTIONS, actionFor } from "./actions";
import { withDeviceId } from "../accounts/device-id";
import { mapLimited } from "../util/map-limited";

export type CheckStatus = "ok" | "warn" | "fail" | "skip";

export interface CheckRow {
  check: string;
  status: CheckStatus;
  result: string;
  action: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: CheckRow[];
}

export interface DoctorInput {
  config: Config;
  env: Record<string, string | undefined>;
  dataDir: string;
  /** Where the config came from (path or "environment"), for the first row. */
  configSource: string;
  configWarnings?: readonly string[];
  timeoutMs?: number;
}

const STEP_TIMEOUT_MS = 10_000;
const FREE_WARN = 1 << 30;
const FREE_FAIL = 100 << 20;
const SKEW_WARN_S = 30;
const SKEW_FAIL_S = 120;

const row = (check: string, status: CheckStatus, result: string, action = ""): CheckRow => ({ check, status, result, action: status === "ok" || status === "skip" ? "" : action });

export async function runDoctor(input: DoctorInput): Promise<DoctorReport> {
  const rows: CheckRow[] = [];
  const timeoutMs = input.timeoutMs ?? STEP_TIMEOUT_MS;
  rows.push(...configRows(input));
  rows.push(dataDirRow(input.dataDir));
  const upstream = effectiveUpstream(input.config, input.env);
  const base = upstream.base_url;
  if (!base) {
    rows.push(row("core", "warn", "no core origin configured: the gateway answers from its built-in simulator (demo mode)", ACTIONS.noBase));
  } else {
    const coreRows = await coreReachability(base, timeoutMs);
    rows.push(...coreRows.rows);
    rows.push(clockRow(coreRows.dateHeader));
    const core = new CoreClient({ ...upstream, request_timeout_ms: Math.min(upstream.request_timeout_ms, timeoutMs * 2) }, base, { solve: async () => null });
    for (const p of input.config.proxies ?? []) {
      const r = await testProxy(p, base, timeoutMs);
      const label = `proxy ${p.name || p.id} (${p.type} ${p.host}:${p.port})`;
      rows.push(row(label, r.success ? "ok" : "fail", r.message, ACTIONS.proxy));
    }
    // With core out of reach every login fails the same way: one cause, one row (above), not one per account.
    if (coreRows.rows.some((r) => r.status === "fail"))
      for (const a of input.config.accounts ?? []) rows.push(row(`account ${accountIdentifier(a)}`, "skip", "not tried: core is not reachable"));
    else rows.push(...(await accountRows(input.config, input.env, core)));
  }
  rows.push(await redisRow(input.config, input.env));
  return { ok: rows.every((r) => r.status !== "fail"), checks: rows };
}

function configRows(input: DoctorInput): CheckRow[] {
  const c = input.config;
  const keys = (c.api_keys?.length ?? 0) || (c.keys?.length ?? 0);
  const out = [row("config", "ok", `${input.configSource}: ${(c.accounts ?? []).length} accounts, ${keys} API keys, ${(c.proxies ?? []).length} proxies`)];
  for (const w of input.configWarnings ?? []) out.push(row("config", "warn", w, ACTIONS.configWarning));
  if (keys === 0) out.push(row("API keys", "warn", "no API keys: every caller must bring its own core token", ACTIONS.noKeys));
  if ((c.accounts ?? []).length === 0) out.push(row("accounts", "warn", "no managed accounts: only callers with their own core token are served", ACTIONS.noAccounts));
  return out;
}

function dataDirRow(dir: string): CheckRow {
  try {
    mkdirSync(dir, { recursive: true });
    const probe = join(dir, `.doctor-${randomBytes(4).toString("hex")}`);
    writeFileSync(probe, "ok");
    unlinkSync(probe);
  } catch (e) {
    return row("data directory", "fail", `${dir}: not writable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, ACTIONS.dataDir);
  }
  try {
    const s = statfsSync(dir);
    const free = Number(s.bavail) * Number(s.bsize);
    const text = `${dir}: writable, ${(free / 2 ** 30).toFixed(1)} GiB free`;
    if (free < FREE_FAIL) return row("data directory", "fail", text, ACTIONS.diskSpace);
    if (free < FREE_WARN) return row("data directory", "warn", text, ACTIONS.diskSpace);
    return row("data directory", "ok", text);
  } catch {
    return row("data directory", "ok", `${dir}: writable (free space unknown)`);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}

async function coreReachability(base: string, timeoutMs: number): Promise<{ rows: CheckRow[]; dateHeader: string | null }> {
  const rows: CheckRow[] = [];
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    return { rows: [row("core base URL", "fail", "not a URL", ACTIONS.baseUrl)], dateHeader: null };
  }
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  const origin = `${u.protocol}//${u.host}`;
  let address = host;
  if (net.isIP(host)) rows.push(row("core DNS", "skip", `${host} is an address`));
  else {
    try {
      const all = await withTimeout(lookup(host, { all: true }), timeoutMs, "DNS lookup");
      address = all[0]!.address;
      rows.push(row("core DNS", "ok", `${host} → ${all.map((a) => a.address).join(", ")}`));
    } catch (e) {
      rows.push(row("core DNS", "fail", `${host}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ACTIONS.dns));
      return { rows, dateHeader: null };
    }
  }
  const started = performance.now();
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        const s = net.connect(port, address, () => {
          s.destroy();
          resolve();
        });
        s.once("error", reject);
      }),
      timeoutMs,
      "TCP connect",
    );
    rows.push(row("core TCP", "ok", `${address}:${port} connected in ${Math.round(performance.now() - started)} ms`));
  } catch (e) {
    rows.push(row("core TCP", "fail", `${address}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ACTIONS.tcp));
    return { rows, dateHeader: null };
  }
  if (u.protocol === "https:") {
    try {
      const days = await withTimeout(
        new Promise<number>((resolve, reject) => {
          const s = tls.connect({ host: address, port, servername: net.isIP(host) ? undefined : host }, () => {
            const cert = s.getPeerCertificate();
            s.destroy();
            if (!s.authorized) reject(new Error(String(s.authorizationError)));
            else resolve(Math.floor((Date.parse(cert.valid_to) - Date.now()) / 86_400_000));
          });
          s.once("error", reject);
        }),
        timeoutMs,
        "TLS handshake",
      );
      rows.push(row("core TLS", days < 7 ? "warn" : "ok", `certificate valid for ${days} more days`, ACTIONS.tls));
    } catch (e) {
      rows.push(row("core TLS", "fail", `${host}:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, ACTIONS.tls));
      return { rows, dateHeader: null };
    }
  } else rows.push(row("core TLS", "skip", "plain http"));
  // The login path with no credentials: core answers its JSON envelope (a refusal); anything else is not core.
  try {
    const res = await fetch(`${origin}${PATHS.login}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}", signal: AbortSignal.timeout(timeoutMs), redirect: "manual" });
    const text = await res.text();
    const html = /^\s*</.test(text) || (res.headers.get("content-type") ?? "").includes("text/html");
    let json = false;
    try {
      json = typeof JSON.parse(text) === "object";
    } catch {}
    const what = `${origin}${PATHS.login} answered HTTP ${res.status}${html ? " with a web page" : json ? " with JSON" : ""}`;
    if (res.status === 404 || res.status === 405 || html || !json) rows.push(row("core login path", "fail", `${what}: this is not core's API`, ACTIONS.baseUrl));
    else if (res.status >= 500) rows.push(row("core login path", "fail", what, ACTIONS.core5xx));
    else rows.push(row("core login path", "ok", what));
    return { rows, dateHeader: res.headers.get("date") };
  } catch (e) {
    rows.push(row("core login path", "fail", `${origin}${PATHS.login}: ${(e as Error).message}`, ACTIONS.tcp));
    return { rows, dateHeader: null };
  }
}

function clockRow(dateHeader: string | null): CheckRow {
  const at = dateHeader ? Date.parse(dateHeader) : NaN;
  if (Number.isNaN(at)) return row("clock", "skip", "core sent no Date header to compare with");
  // The header has whole seconds: a skew under 2 s is noise.
  const skew = Math.round((Date.now() - at) / 1000);
  const text = `local clock ${skew === 0 ? "agrees with core's" : `is ${Math.abs(skew)} s ${skew > 0 ? "ahead of" : "behind"} core's`}`;
  if (Math.abs(skew) > SKEW_FAIL_S) return row("clock", "fail", text, ACTIONS.clock);
  if (Math.abs(skew) > SKEW_WARN_S) return row("clock", "warn", text, ACTIONS.clock);
  return row("clock", "ok", text);
}

function proxyOf(config: Config, acc: Account): ProxySpec | undefined {
  const p = acc.proxy_id ? (config.proxies ?? []).find((x) => x.id === acc.proxy_id) : undefined;
  return p ? { type: p.type as ProxySpec["type"], host: p.host, port: Number(p.port), username: p.username || undefined, password: p.password || undefined } : undefined;
}

async function accountRows(config: Config, env: Record<string, string | undefined>, core: CoreClient): Promise<CheckRow[]> {
  // Five at a time, as the console's test-all: a doctor must not look like a login storm.
  return mapLimited(config.accounts ?? [], 5, (acc) => accountRow(config, env, acc, core));
}

async function accountRow(config: Config, env: Record<string, string | undefined>, acc: Account, core: CoreClient): Promise<CheckRow> {
  const id = accountIdentifier(acc);
  const proxy = proxyOf(config, acc);
  const label = `account ${id}${proxy ? ` (via ${acc.proxy_id})` : ""}`;
  try {
    if (acc.password && (acc.email || acc.mobile)) {
      await core.login(withDeviceId(acc, config, env), { proxy });
      return row(label, "ok", "login succeeded");
    }
    if (!acc.token) return row(label, "fail", "neither a password nor a token", ACTIONS.credentials);
    await core.listSessions(acc.token, { proxy });
    return row(label, "ok", "its token is accepted (session list)");
  } catch (e) {
    const c = classifyFailure(e);
    return row(label, "fail", `${c ? `${c.cls}: ` : ""}${(e as Error).message}`, actionFor(c?.cls));
  }
}

async function redisRow(config: Config, env: Record<string, string | undefined>): Promise<CheckRow> {
  let s;
  try {
    s = storeSettings(config, env);
  } catch (e) {
    return row("redis", "fail", (e as Error).message, ACTIONS.redis);
  }
  if (s.backend !== "redis" || !s.redisUrl) return row("redis", "skip", "not configured (store.backend memory)");
  const { SharedRedis } = await import("../shared-state/redis");
  try {
    const r = await SharedRedis.connect(s.redisUrl, s.prefix);
    r.close();
    return row("redis", "ok", `${redactRedisUrl(s.redisUrl)} answers PING`);
  } catch (e) {
    return row("redis", "fail", (e as Error).message, ACTIONS.redis);
  }
}
