// The core simulator (core-upstream §12): a real HTTP server on loopback that speaks core's wire protocol —
// the JSON envelope, logins, sessions, PoW challenges verified on every completion, continue and upload,
// files bound to their account, and SSE in core's framing — for tests, benchmarks and the demo mode.
import { createHmac, randomBytes } from "node:crypto";
import { hashV1Hex } from "../core/pow/hash";
import { estimateTokens } from "../pipeline/token-estimate";
import { directive, playRound, type Params, type Selected } from "./scenarios";
import type { MessageState, Piece, RoundSpec } from "./stream";

export interface SimAccount {
  email?: string;
  mobile?: string;
  password: string;
}

export interface SimOptions {
  port?: number;
  seed?: number;
  difficulty?: number;
  clock?: "real" | "virtual";
  accounts?: SimAccount[];
  /** Accept any credentials and any bearer token (demo mode). */
  open?: boolean;
  powTtlS?: number;
  /** How an invalid token is answered. */
  expiryForm?: "http401" | "http403" | "code40003";
  filePolls?: number;
}

export interface RecordedRequest {
  seq: number;
  method: string;
  path: string;
  account: string | null;
  body: any;
  pow?: { valid: boolean; reason: string };
}

interface Session {
  id: string;
  account: string;
  live: boolean;
  deleted: boolean;
  lastResponseId: number;
  messages: number;
  state: MessageState;
  scenario: Selected;
  round: number;
  abort?: () => void;
}

const envelope = (bizData: unknown, bizCode = 0, bizMsg = "") => ({ code: 0, msg: "", data: { biz_code: bizCode, biz_msg: bizMsg, biz_data: bizData } });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
const hex = (n: number) => randomBytes(n).toString("hex");
const uuid = () => crypto.randomUUID();
const encoder = new TextEncoder();

function normMobile(m: string): string {
  const d = m.replace(/\D/g, "");
  return d.length === 13 && d.startsWith("86") ? d.slice(2) : d;
}

export class CoreSimulator {
  url = "";
  private server!: ReturnType<typeof Bun.serve>;
  private tokens = new Map<string, string>();
  private sessions = new Map<string, Session>();
  private files = new Map<string, { account: string; status: string; polls: number; size: number; name: string; text: string }>();
  private challenges = new Map<string, { answer: number; expireAt: number; target: string }>();
  private queue: { sel: Selected; times: number }[] = [];
  private attempts = new Map<string, number>();
  private log: RecordedRequest[] = [];
  private seq = 0;
  private virtualNow = 1775322810.101244;
  private readonly key = randomBytes(16);
  counters = { logins: 0, login_failures: 0, pow_issued: 0, pow_rejected: 0, busy_rejections: 0, deleted_while_live: 0, completions: 0, continues: 0, uploads: 0, file_polls: 0, delete_calls: 0, delete_all_calls: 0 };

  constructor(readonly opts: SimOptions) {}

  async start(): Promise<this> {
    this.server = Bun.serve({ port: this.opts.port ?? 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (req) => this.handle(req) });
    this.url = `http://127.0.0.1:${this.server.port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.stop(true);
  }

  /** Queues a scenario for the next completion(s) (§12.8 step 1). */
  enqueue(e: { scenario: string; params?: Params; times?: number }): void {
    this.queue.push({ sel: { id: e.scenario, params: e.params ?? {} }, times: e.times ?? 1 });
  }

  requests(filter: { path?: string } = {}): RecordedRequest[] {
    return this.log.filter((r) => !filter.path || r.path === filter.path);
  }

  state() {
    return {
      counters: { ...this.counters },
      sessions: [...this.sessions.values()].map((s) => ({ id: s.id, account: s.account, live: s.live, deleted: s.deleted, messages: s.messages })),
    };
  }

  expireTokens(account?: string): void {
    for (const [t, a] of this.tokens) if (!account || a === account) this.tokens.delete(t);
  }

  advanceClock(ms: number): void {
    this.virtualNow += ms / 1000;
  }

  reset(): void {
    this.queue = [];
    this.log = [];
    this.attempts.clear();
  }

  private now(): number {
    if (this.opts.clock === "virtual") return (this.virtualNow += 0.001);
    return Date.now() / 1000;
  }

  private record(req: Request, path: string, account: string | null, body: any, pow?: RecordedRequest["pow"]): void {
    this.log.push({ seq: ++this.seq, method: req.method, path, account, body, pow });
    if (this.log.length > 5000) this.log.shift();
  }

  private account(req: Request): string | null {
    const m = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "");
    if (!m) return null;
    const known = this.tokens.get(m[1]!);
    if (known) return known;
    return this.opts.open ? `open:${m[1]!.slice(0, 8)}` : null;
  }

  private expired(): Response {
    const form = this.opts.expiryForm ?? "http401";
    if (form === "http403") return json({ code: 403, msg: "forbidden", data: null }, 403);
    if (form === "code40003") return json({ code: 40003, msg: "token invalid", data: null });
    return json({ code: 401, msg: "unauthorized", data: null }, 401);
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === "/") return new Response("");
    if (path.startsWith("/_sim/")) return this.control(req, path);
    if (path === "/api/v0/users/login") return this.login(req);
    const account = this.account(req);
    if (!account) {
      this.record(req, path, null, null);
      return this.expired();
    }
    switch (path) {
      case "/api/v0/chat_session/create": {
        const id = uuid();
        this.sessions.set(id, { id, account, live: false, deleted: false, lastResponseId: 0, messages: 0, state: { thinking: "", answer: "", usage: 0 }, scenario: { id: "default", params: {} }, round: 0 });
        this.record(req, path, account, await req.json().catch(() => null));
        // Both observed answer shapes, alternating.
        return json(envelope(this.sessions.size % 2 ? { id, seq_id: this.sessions.size } : { chat_session: { id, model_type: "default" } }));
      }
      case "/api/v0/chat_session/fetch_page": {
        this.record(req, path, account, null);
        const list = [...this.sessions.values()].filter((s) => s.account === account && !s.deleted);
        return json(envelope({ chat_sessions: list.map((s) => ({ id: s.id, title: "Simulated chat", title_type: "SYSTEM", pinned: false, updated_at: this.now() })), has_more: false }));
      }
      case "/api/v0/chat_session/delete":
      case "/api/v0/chat_session/delete_all": {
        const body = await req.json().catch(() => ({}));
        this.record(req, path, account, body);
        const all = path.endsWith("delete_all");
        if (all) this.counters.delete_all_calls++;
        else this.counters.delete_calls++;
        for (const s of this.sessions.values()) {
          if (s.account !== account || s.deleted || (!all && s.id !== body?.chat_session_id)) continue;
          s.deleted = true;
          if (s.live) {
            this.counters.deleted_while_live++;
            s.abort?.();
          }
        }
        return json(envelope({}));
      }
      case "/api/v0/chat/create_pow_challenge":
        return this.powChallenge(req, account);
      case "/api/v0/chat/completion":
      case "/api/v0/chat/continue":
        return this.completion(req, path, account);
      case "/api/v0/file/upload_file":
        return this.upload(req, account);
      case "/api/v0/file/fetch_files":
        return this.fetchFiles(req, url, account);
    }
    return json({ code: 404, msg: "not found", data: null }, 404);
  }

  private async login(req: Request): Promise<Response> {
    const body = await req.json().catch(() => ({}));
    this.record(req, "/api/v0/users/login", null, { ...body, password: body?.password ? "***" : "" });
    const accounts = this.opts.accounts ?? [];
    const acc = accounts.find((a) => (body.email && a.email?.toLowerCase() === String(body.email).toLowerCase()) || (body.mobile && a.mobile && normMobile(a.mobile) === normMobile(String(body.mobile))));
    let id: string | null = null;
    if (acc) {
      if (acc.password !== body.password) {
        this.counters.login_failures++;
        return json(envelope(null, 2, "wrong password"));
      }
      id = acc.email?.toLowerCase() ?? normMobile(acc.mobile ?? "");
    } else if (this.opts.open) id = String(body.email ?? body.mobile ?? "open");
    if (!id) {
      this.counters.login_failures++;
      return json(envelope(null, 2, "account not found"));
    }
    this.counters.logins++;
    const token = `sim-${hex(16)}`;
    this.tokens.set(token, id);
    return json(envelope({ user: { id, token, email: body.email ?? "", mobile_number: body.mobile ?? "" } }));
  }

  private async powChallenge(req: Request, account: string): Promise<Response> {
    const body = await req.json().catch(() => ({}));
    this.record(req, "/api/v0/chat/create_pow_challenge", account, body);
    const target = body?.target_path;
    if (target !== "/api/v0/chat/completion" && target !== "/api/v0/file/upload_file") return json({ code: 400, msg: "bad target_path", data: null }, 400);
    const difficulty = this.opts.difficulty ?? 144000;
    const answer = Math.floor(Math.random() * difficulty);
    const salt = hex(8);
    const expireAt = Math.floor(this.now()) + (this.opts.powTtlS ?? 300);
    const challenge = hashV1Hex(encoder.encode(`${salt}_${expireAt}_${answer}`));
    const signature = createHmac("sha256", this.key).update(`${challenge}:${salt}:${expireAt}:${target}`).digest("hex");
    this.challenges.set(signature, { answer, expireAt, target });
    this.counters.pow_issued++;
    return json(envelope({ challenge: { algorithm: "CoreHashV1", challenge, salt, signature, difficulty, expire_at: expireAt, expire_after: 300000, target_path: target } }));
  }

  private checkPow(req: Request, target: string): { valid: boolean; reason: string } {
    const raw = req.headers.get("x-core-pow-response");
    if (!raw) return { valid: false, reason: "missing" };
    let h: any;
    try {
      h = JSON.parse(Buffer.from(raw, "base64").toString("utf8"));
    } catch {
      return { valid: false, reason: "not base64 json" };
    }
    const issued = this.challenges.get(h?.signature);
    if (!issued) return { valid: false, reason: "unknown signature" };
    if (issued.target !== target || h.target_path !== target) return { valid: false, reason: "wrong target" };
    if (issued.expireAt < this.now()) return { valid: false, reason: "expired" };
    if (h.algorithm !== "CoreHashV1" || h.answer !== issued.answer) return { valid: false, reason: "wrong answer" };
    return { valid: true, reason: "" };
  }

  private select(prompt: string, refText: string): Selected {
    const q = this.queue[0];
    if (q) {
      if (--q.times <= 0) this.queue.shift();
      return q.sel;
    }
    return directive(prompt) ?? directive(refText) ?? { id: "default", params: {} };
  }

  private async completion(req: Request, path: string, account: string): Promise<Response> {
    const isContinue = path.endsWith("continue");
    const body = await req.json().catch(() => null);
    const pow = this.checkPow(req, "/api/v0/chat/completion");
    this.record(req, path, account, body, pow);
    if (!pow.valid) {
      this.counters.pow_rejected++;
      return json({ code: 40300, msg: "invalid pow response", data: null }, 400);
    }
    const s = this.sessions.get(body?.chat_session_id);
    if (!s || s.account !== account || s.deleted) return json({ code: 400, msg: "unknown chat session", data: null }, 400);
    if (s.live) {
      this.counters.busy_rejections++;
      return json({ msg: "有消息正在生成，请稍后再试" });
    }
    if (!isContinue) {
      for (const id of Array.isArray(body.ref_file_ids) ? body.ref_file_ids : []) {
        const f = this.files.get(id);
        if (!f || f.account !== account) return json(envelope(null, 9, "invalid ref file id"));
      }
      const refText = (body.ref_file_ids ?? []).map((id: string) => this.files.get(id)?.text ?? "").join("\n");
      s.scenario = this.select(String(body.prompt ?? ""), refText);
      s.round = 0;
      s.messages += 2;
      s.lastResponseId = s.messages;
      this.counters.completions++;
    } else {
      if (body?.message_id !== s.lastResponseId) return json({ code: 400, msg: "bad message_id", data: null }, 400);
      s.round++;
      this.counters.continues++;
    }
    const attemptKey = `${s.scenario.id}:${JSON.stringify(s.scenario.params)}`;
    const attempt = this.attempts.get(attemptKey) ?? 0;
    this.attempts.set(attemptKey, attempt + 1);
    const spec: RoundSpec = {
      requestMessageId: s.lastResponseId - 1,
      responseMessageId: s.lastResponseId,
      modelType: String(body.model_type ?? "default"),
      thinkingEnabled: isContinue ? s.state.thinking !== "" : body.thinking_enabled === true,
      searchEnabled: body.search_enabled === true,
      clock: () => this.now(),
    };
    const result = playRound(s.scenario, { prompt: String(body.prompt ?? ""), spec, round: s.round, state: s.state, estimate: estimateTokens }, attempt);
    if ("http" in result) return json(result.http.json, result.http.status);
    return this.stream(s, result.pieces);
  }

  private stream(s: Session, pieces: Piece[]): Response {
    s.live = true;
    let i = 0;
    let aborted = false;
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        s.abort = () => {
          aborted = true;
          try {
            c.error(new Error("session deleted"));
          } catch {}
        };
      },
      pull: async (c) => {
        while (i < pieces.length && !aborted) {
          const p = pieces[i++]!;
          if (typeof p === "string") {
            c.enqueue(encoder.encode(p));
            return;
          }
          if ("sleep" in p) await Bun.sleep(p.sleep);
          else if ("abort" in p) {
            s.live = false;
            c.error(new Error("abrupt end of stream"));
            return;
          }
        }
        s.live = false;
        if (!aborted) c.close();
      },
      cancel: () => {
        s.live = false;
      },
    });
    return new Response(stream, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
  }

  private async upload(req: Request, account: string): Promise<Response> {
    const pow = this.checkPow(req, "/api/v0/file/upload_file");
    const form = await req.formData().catch(() => null);
    const file = form?.get("file");
    this.record(req, "/api/v0/file/upload_file", account, file instanceof File ? { name: file.name, size: file.size, type: file.type } : null, pow);
    if (!pow.valid) {
      this.counters.pow_rejected++;
      return json({ code: 40300, msg: "invalid pow response", data: null }, 400);
    }
    if (!(file instanceof File)) return json({ code: 400, msg: "missing file part", data: null }, 400);
    if (req.headers.get("x-file-size") !== String(file.size)) return json({ code: 400, msg: "x-file-size does not match", data: null }, 400);
    this.counters.uploads++;
    const id = `file-${uuid()}`;
    const text = file.type.startsWith("text/") ? await file.text() : "";
    this.files.set(id, { account, status: "PENDING", polls: 0, size: file.size, name: file.name, text });
    return json(envelope(this.fileObject(id)));
  }

  private fileObject(id: string) {
    const f = this.files.get(id)!;
    return {
      id,
      status: f.status,
      file_name: f.name,
      file_size: f.size,
      from_share: false,
      model_kind: "NORMAL",
      token_usage: f.status === "SUCCESS" ? estimateTokens(f.text) : null,
      error_code: null,
      inserted_at: this.now(),
      updated_at: this.now(),
      is_image: false,
      ...(f.status === "SUCCESS" ? { signed_path: `/file?file_id=${id}&state=sim` } : {}),
    };
  }

  private fetchFiles(req: Request, url: URL, account: string): Response {
    const ids = (url.searchParams.get("file_ids") ?? "").split(",").filter(Boolean);
    this.record(req, "/api/v0/file/fetch_files", account, { file_ids: ids });
    this.counters.file_polls++;
    const files = [];
    for (const id of ids) {
      const f = this.files.get(id);
      if (!f || f.account !== account) continue;
      if (f.status === "PENDING" && ++f.polls >= (this.opts.filePolls ?? 1)) f.status = "SUCCESS";
      files.push(this.fileObject(id));
    }
    return json(envelope({ files }));
  }

  private async control(req: Request, path: string): Promise<Response> {
    const body = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    switch (path) {
      case "/_sim/reset":
        this.reset();
        return json({ ok: true });
      case "/_sim/enqueue":
        this.enqueue(body);
        return json({ ok: true });
      case "/_sim/expire-tokens":
        this.expireTokens(body?.account);
        return json({ ok: true });
      case "/_sim/clock/advance":
        this.advanceClock(Number(body?.ms ?? 0));
        return json({ ok: true });
      case "/_sim/requests":
        return json(this.log);
      case "/_sim/state":
        return json(this.state());
    }
    return json({ error: "unknown control path" }, 404);
  }
}

export async function startCoreSimulator(opts: SimOptions = {}): Promise<CoreSimulator> {
  return new CoreSimulator(opts).start();
}
