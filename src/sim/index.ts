// The core simulator (core-upstream §12): a real HTTP server on loopback that speaks core's wire protocol —
// the JSON envelope, logins, sessions, PoW challenges verified on every completion, continue and upload,
// files bound to their account, and SSE in core's framing generated from scenario scripts — for tests,
// benchmarks and the demo mode. This file holds the routing and the in-process test/ops API (§12.10).
import { AccountStore, expiryReply, normaliseAccountRef } from "./accounts";
import { SimClock } from "./clock";
import { handleCompletion, type CompletionDeps } from "./completion";
import { handleControl } from "./control";
import { invalid, ok, type JsonReply } from "./envelope";
import { FileStore } from "./files";
import { COMPLETION_TARGET, PowDesk, powRejection, UPLOAD_TARGET } from "./pow";
import { RngFamily } from "./rng";
import { ScenarioQueue } from "./select";
import { SessionStore } from "./sessions";
import { encodeWhole } from "./transport";
import { DEFAULT_SWITCHES, zeroCounters, type EnqueueEntry, type RecordedRequest, type RequestFilter, type SimAccount, type SimOptions, type SimSwitches } from "./types";
import { LiveStreams } from "./live-streams";

export type * from "./types";
export { parseDirective } from "./select";
export { BUILTIN as BUILTIN_SCENARIOS } from "./scenarios";

const API = "/api/v0";
const IDENTITY_HEADERS = ["user-agent", "x-client-platform", "x-client-version", "x-client-locale"] as const;
/** The request log keeps at least the last `requestLog` requests (default 20,000), trimmed in steps of a twentieth. */
const LOG_LIMIT = 20_000;
const PAGE_SIZE = 50;

function pickSwitches(o: Partial<SimSwitches>): Partial<SimSwitches> {
  const out: Partial<SimSwitches> = {};
  for (const k of Object.keys(DEFAULT_SWITCHES) as (keyof SimSwitches)[]) if (o[k] !== undefined) (out as any)[k] = o[k];
  return out;
}

export class CoreSimulator {
  url = "";
  port = 0;
  readonly seed: number;
  counters = zeroCounters();
  /** Bodies streaming now and the peaks since the last reset, per account (multi-instance limit tests). */
  readonly liveStreams = new LiveStreams();
  private sw: SimSwitches;
  private readonly startSwitches: SimSwitches;
  private server: ReturnType<typeof Bun.serve> | null = null;
  private readonly clock: SimClock;
  private rng: RngFamily;
  private accounts: AccountStore;
  private pow: PowDesk;
  private files: FileStore;
  private sessions: SessionStore;
  private queue = new ScenarioQueue();
  private attempts = new Map<string, number>();
  private log: RecordedRequest[] = [];
  private seq = 0;

  constructor(private readonly opts: SimOptions = {}) {
    this.seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
    this.sw = { ...DEFAULT_SWITCHES, ...pickSwitches(opts) };
    this.startSwitches = { ...this.sw };
    this.clock = new SimClock(this.sw.clock, opts.epoch);
    this.rng = new RngFamily(this.seed);
    this.accounts = new AccountStore(opts.accounts ?? [], this.rng, this.clock.nowMs());
    this.pow = new PowDesk(this.rng);
    this.files = new FileStore(this.rng);
    this.sessions = new SessionStore(this.rng);
  }

  async start(): Promise<this> {
    // idleTimeout 0: a `stall` scenario is silent on purpose, for longer than Bun's default 10 s.
    const hostname = this.opts.hostname ?? "127.0.0.1";
    this.server = Bun.serve({ port: this.opts.port ?? 0, hostname, idleTimeout: 0, fetch: (req) => this.handle(req) });
    this.port = this.server.port ?? 0;
    // A wildcard address is not one to call: the URL names loopback, which it includes.
    const callable = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname.includes(":") ? `[${hostname}]` : hostname;
    this.url = `http://${callable}:${this.port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sessions.all()) s.kill?.();
    this.server?.stop(true);
    this.server = null;
  }

  // ---- test/ops API (§12.10) ----

  /** Queues a scenario (or a full script) for the next matching completion(s) (§12.8 step 1). */
  enqueue(entry: EnqueueEntry): void {
    this.queue.push(entry);
  }

  requests(filter: RequestFilter = {}): RecordedRequest[] {
    return this.log.filter(
      (r) =>
        (filter.path === undefined || r.path === filter.path) &&
        (filter.method === undefined || r.method === filter.method.toUpperCase()) &&
        (filter.account === undefined || r.account === normaliseAccountRef(filter.account)) &&
        (filter.session_id === undefined || r.session_id === filter.session_id) &&
        (filter.since === undefined || r.seq > filter.since),
    );
  }

  state() {
    const ids = new Set<string>([...this.accounts.ids(), ...this.sessions.all().map((s) => s.account)]);
    const accounts: Record<string, unknown> = {};
    for (const id of ids) {
      accounts[id] = {
        sessions: this.sessions.ofAccount(id, true).map((s) => ({ id: s.id, live: s.live, messages: s.messages, deleted: s.deleted })),
        files: this.files.ofAccount(id).map((f) => ({ id: f.id, name: f.name, size: f.size, status: f.status, polls: f.polls })),
      };
    }
    return {
      seed: this.seed,
      clock: this.clock.peek(),
      switches: { ...this.sw },
      queued: this.queue.length,
      counters: { ...this.counters },
      streams: this.liveStreams.view(),
      accounts,
      sessions: this.sessions.all().map((s) => ({ id: s.id, account: s.account, live: s.live, messages: s.messages, deleted: s.deleted })),
    };
  }

  /** Changes switches at runtime (§12.4); unknown keys are ignored. */
  set(switches: Partial<SimSwitches>): void {
    Object.assign(this.sw, pickSwitches(switches));
    this.clock.mode = this.sw.clock;
  }

  get switches(): Readonly<SimSwitches> {
    return this.sw;
  }

  /** Expires the tokens of one account (any spelling) or of all; returns how many were live. */
  expireTokens(account?: string): number {
    return this.accounts.expire(account);
  }

  /** Fault control (issue 32): a banned account's logins are refused with a non-password message. */
  ban(account: string, on = true): string {
    return this.accounts.ban(account, on);
  }

  advanceClock(ms: number): void {
    this.clock.advance(ms);
  }

  addAccount(account: SimAccount): string {
    return this.accounts.add(account);
  }

  /**
   * Clears the queue, the request log, retry attempts and counters, and restores the start switches.
   * Accounts, tokens, sessions and files survive unless `hard`, which also restarts the clock and every
   * seeded stream — after a hard reset the same requests get byte-identical answers again.
   */
  reset(opts: { hard?: boolean } = {}): void {
    this.queue.clear();
    this.attempts.clear();
    this.log = [];
    Object.assign(this.counters, zeroCounters());
    this.liveStreams.resetPeaks();
    this.accounts.clearBans();
    this.sw = { ...this.startSwitches };
    this.clock.mode = this.sw.clock;
    if (opts.hard) {
      for (const s of this.sessions.all()) s.kill?.();
      this.seq = 0;
      this.clock.reset();
      this.rng.reset();
      this.accounts.clearTokens();
      this.pow = new PowDesk(this.rng);
      this.sessions.clear();
      this.files.clear();
    }
  }

  // ---- HTTP ----

  private reply(r: JsonReply): Response {
    const raw = r.text ?? JSON.stringify(r.json);
    const headers: Record<string, string> = { "Content-Type": r.text !== undefined ? "text/plain; charset=utf-8" : "application/json" };
    if (this.sw.compression === "none") return new Response(raw, { status: r.status, headers });
    headers["Content-Encoding"] = this.sw.compression;
    return new Response(encodeWhole(new TextEncoder().encode(raw), this.sw.compression) as Uint8Array<ArrayBuffer>, { status: r.status, headers });
  }

  private record(req: Request, url: URL, body: unknown): RecordedRequest {
    const h = req.headers;
    const rec: RecordedRequest = {
      seq: ++this.seq,
      at: this.clock.peek(),
      method: req.method,
      path: url.pathname,
      query: url.search,
      account: null,
      session_id: null,
      headers: { user_agent: h.get("user-agent"), client_platform: h.get("x-client-platform"), client_version: h.get("x-client-version"), client_locale: h.get("x-client-locale") },
      body,
    };
    this.log.push(rec);
    // Trimmed in steps, not by one on every request: each trim moves the whole log (a long run's every request).
    const keep = this.opts.requestLog ?? LOG_LIMIT;
    if (this.log.length >= keep + Math.ceil(keep / 20)) this.log.splice(0, this.log.length - keep);
    return rec;
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/") return new Response("", { status: 200 });
    if (path.startsWith("/_sim/")) return handleControl(this, req, url);
    if (this.sw.firstByteDelayMs > 0) await Bun.sleep(this.sw.firstByteDelayMs);
    const isUpload = path === `${API}/file/upload_file`;
    let body: any = null;
    if (req.method === "POST" && !isUpload) {
      const text = await req.text();
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
    }
    const rec = this.record(req, url, body);
    if (this.sw.requireIdentity) {
      const missing = IDENTITY_HEADERS.find((k) => !req.headers.get(k));
      if (missing) return this.reply(invalid(`missing client identity header ${missing}`));
    }
    if (path === `${API}/users/login` && req.method === "POST") {
      const r = this.accounts.login(body, this.sw.open, this.clock.nowMs());
      rec.account = r.account;
      if (r.account) this.counters.logins++;
      else this.counters.login_failures++;
      return this.reply(r.reply);
    }
    const account = this.accounts.resolve(req.headers.get("authorization"), this.sw.open, this.sw.tokenTtlMs, this.clock.nowMs());
    if (!account) return this.reply(expiryReply(this.sw.expiryForm));
    rec.account = account;
    return this.route(req, url, path, account, body, rec);
  }

  private deps(): CompletionDeps {
    return { sw: this.sw, seed: this.seed, clock: this.clock, rng: this.rng, accounts: this.accounts, files: this.files, sessions: this.sessions, queue: this.queue, counters: this.counters, attempts: this.attempts, liveStreams: this.liveStreams };
  }

  private async route(req: Request, url: URL, path: string, account: string, body: any, rec: RecordedRequest): Promise<Response> {
    const now = () => this.clock.tick();
    switch (`${req.method} ${path}`) {
      case `POST ${API}/chat_session/create`: {
        const { session, nth } = this.sessions.create(account, now());
        rec.session_id = session.id;
        const shape = this.sw.sessionShape === "alternate" ? (nth % 2 === 0 ? "id" : "nested") : this.sw.sessionShape;
        const data = shape === "id" ? { id: session.id, seq_id: nth + 1, agent: "chat", title: null, pinned: false, updated_at: session.createdAt } : { chat_session: { id: session.id, title: null, model_type: "default", pinned: false, updated_at: session.createdAt }, ttl_seconds: 259200 };
        return this.reply({ status: 200, json: ok(data) });
      }
      case `GET ${API}/chat_session/fetch_page`: {
        const list = this.sessions.ofAccount(account).reverse();
        const page = list.slice(0, PAGE_SIZE).map((s) => ({ id: s.id, title: s.title, title_type: "SYSTEM", pinned: false, updated_at: s.updatedAt }));
        return this.reply({ status: 200, json: ok({ chat_sessions: page, has_more: list.length > PAGE_SIZE }) });
      }
      case `POST ${API}/chat_session/delete`: {
        this.counters.delete_calls++;
        const s = this.sessions.get(body?.chat_session_id);
        rec.session_id = s?.id ?? null;
        if (typeof body?.chat_session_id !== "string") return this.reply(invalid("chat_session_id must be a string"));
        if (s && s.account === account) this.counters.deleted_while_live += this.sessions.delete([s]);
        return this.reply({ status: 200, json: ok(null) });
      }
      case `POST ${API}/chat_session/delete_all`: {
        this.counters.delete_all_calls++;
        this.counters.deleted_while_live += this.sessions.delete(this.sessions.ofAccount(account));
        return this.reply({ status: 200, json: ok(null) });
      }
      case `POST ${API}/chat/create_pow_challenge`: {
        const target = body?.target_path;
        if (target !== COMPLETION_TARGET && target !== UPLOAD_TARGET) return this.reply(invalid("unsupported target_path"));
        this.counters.pow_issued++;
        return this.reply({ status: 200, json: ok({ challenge: this.pow.issue(target, this.sw, this.clock.peek()) }) });
      }
      case `POST ${API}/chat/completion`:
      case `POST ${API}/chat/continue`: {
        rec.pow = this.pow.verify(req.headers.get(this.sw.powHeader), COMPLETION_TARGET, this.sw, this.clock.peek());
        if (!rec.pow.valid) {
          this.counters.pow_rejected++;
          return this.reply(powRejection(this.sw.powRejectForm));
        }
        const r = await handleCompletion(this.deps(), body, account, path.endsWith("/continue"), rec);
        if (rec.scenario === "pow-rejected") this.counters.pow_rejected++;
        return "reply" in r ? this.reply(r.reply) : r.stream;
      }
      case `POST ${API}/file/upload_file`: {
        rec.pow = this.pow.verify(req.headers.get(this.sw.powHeader), UPLOAD_TARGET, this.sw, this.clock.peek());
        if (!rec.pow.valid) {
          this.counters.pow_rejected++;
          return this.reply(powRejection(this.sw.powRejectForm));
        }
        const r = await this.files.accept(req, account, this.sw, now());
        rec.body = r.summary;
        if (!r.file) return this.reply(r.reply);
        this.counters.uploads++;
        return this.reply({ status: 200, json: ok(this.files.object(r.file)) });
      }
      case `GET ${API}/file/fetch_files`: {
        this.counters.file_polls++;
        const ids = (url.searchParams.get("file_ids") ?? "").split(",").filter(Boolean);
        rec.body = { file_ids: ids };
        const files = this.files.poll(ids, account, this.sw, now());
        return this.reply({ status: 200, json: ok({ files: files.map((f) => this.files.object(f)) }) });
      }
    }
    return this.reply({ status: 404, json: { code: 404, msg: "not found", data: null } });
  }
}

export async function startCoreSimulator(opts: SimOptions = {}): Promise<CoreSimulator> {
  return new CoreSimulator(opts).start();
}
