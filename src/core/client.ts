// The gateway's client for core (core-upstream §5): login, sessions, PoW, completion with continue rounds,
// uploads. Every call goes through coreFetch (identity headers, timeouts, proxy).
import type { EffectiveUpstream } from "../config/effective";
import { classifyFailure, envelopeMessage, isEnvelopeSuccess, readEnvelope } from "./classify";
import { CoreError } from "./errors";
import { coreFetch, type CoreRequest, type ProxySpec } from "./http";
import { PATHS } from "./wire";
import { parseChallenge, powHeader, PowChallengeError, type PowChallenge } from "./pow/challenge";
import type { PowPool } from "./pow/pool";

export interface LoginAccount {
  email?: string | null;
  mobile?: string | null;
  password?: string | null;
  device_id?: string | null;
}

export interface CallOptions {
  proxy?: ProxySpec;
  signal?: AbortSignal;
}

export interface SolvedPow {
  header: string;
  challenge: PowChallenge;
}

/** Login mobile form (core-upstream §5.1): digits only; 13 digits starting with 86 lose the 86. */
export function loginMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, "");
  return digits.length === 13 && digits.startsWith("86") ? digits.slice(2) : digits;
}

export class CoreClient {
  constructor(
    readonly wire: EffectiveUpstream,
    readonly baseUrl: string,
    private readonly pow: PowPool,
  ) {}

  fetch(req: CoreRequest): Promise<Response> {
    return coreFetch(this.wire, this.baseUrl, req);
  }

  /** A JSON call: returns biz_data on success, throws a classified CoreError otherwise. */
  async call(req: CoreRequest, need?: (bizData: any) => unknown): Promise<any> {
    let res: Response;
    try {
      res = await this.fetch(req);
    } catch (e) {
      if (req.signal?.aborted) throw e;
      throw new CoreError("upstream_error", `core unreachable: ${(e as Error).message}`);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    const env = readEnvelope(body);
    if (!isEnvelopeSuccess(res.status, env) || (need && !need(env.bizData))) {
      const kind = res.status === 200 && isEnvelopeSuccess(res.status, env) ? "upstream_error" : classifyFailure(res.status, body);
      const msg = envelopeMessage(env) || `HTTP ${res.status}`;
      throw new CoreError(kind, `${req.path.split("?")[0]}: ${msg}`, res.status);
    }
    return env.bizData;
  }

  async login(acc: LoginAccount, opts: CallOptions = {}): Promise<string> {
    const body: Record<string, unknown> = {
      password: (acc.password ?? "").trim(),
      device_id: acc.device_id || this.wire.device_id,
      os: this.wire.client_platform,
    };
    if (acc.email?.trim()) body.email = acc.email.trim();
    else {
      body.mobile = loginMobile(acc.mobile ?? "");
      body.area_code = null;
    }
    let res: Response;
    try {
      res = await this.fetch({ method: "POST", path: PATHS.login, json: body, ...opts });
    } catch (e) {
      throw new CoreError("login_failed", `login: core unreachable (${(e as Error).message})`);
    }
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {}
    const env = readEnvelope(parsed);
    const token = (env.bizData as { user?: { token?: unknown } } | null)?.user?.token;
    if (res.status === 200 && env.code === 0 && env.bizCode === 0 && typeof token === "string" && token) return token;
    throw new CoreError("login_failed", `login failed: ${envelopeMessage(env) || `HTTP ${res.status}`}`, res.status);
  }

  async createSession(token: string, opts: CallOptions = {}): Promise<string> {
    const data = await this.call({ method: "POST", path: PATHS.sessionCreate, token, json: { agent: "chat" }, ...opts }, (d) => sessionIdOf(d));
    return sessionIdOf(data)!;
  }

  async countSessions(token: string, opts: CallOptions = {}): Promise<number> {
    const data = await this.call({ method: "GET", path: PATHS.sessionList, token, ...opts });
    return Array.isArray(data?.chat_sessions) ? data.chat_sessions.length : 0;
  }

  async deleteSession(token: string, sessionId: string, opts: CallOptions = {}): Promise<void> {
    await this.call({ method: "POST", path: PATHS.sessionDelete, token, json: { chat_session_id: sessionId }, timeoutMs: this.wire.delete_timeout_ms, ...opts });
  }

  async deleteAllSessions(token: string, opts: CallOptions = {}): Promise<void> {
    await this.call({ method: "POST", path: PATHS.sessionDeleteAll, token, json: {}, timeoutMs: this.wire.delete_timeout_ms, ...opts });
  }

  /** A fresh challenge for `target`, solved in the worker pool; a refused or unsolvable one is replaced once. */
  async solvePow(token: string, target: string, opts: CallOptions = {}): Promise<SolvedPow> {
    let lastError = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      const data = await this.call({ method: "POST", path: PATHS.powChallenge, token, json: { target_path: target }, ...opts }, (d) => d?.challenge);
      let challenge: PowChallenge;
      try {
        challenge = parseChallenge(data.challenge, this.wire.pow_algorithm);
      } catch (e) {
        if (!(e instanceof PowChallengeError)) throw e;
        lastError = e.message;
        continue;
      }
      const answer = await this.pow.solve(challenge, opts.signal);
      if (answer === null) {
        lastError = "no answer below the difficulty";
        continue;
      }
      return { header: powHeader(challenge, answer), challenge };
    }
    throw new CoreError("upstream_pow_failed", `PoW failed: ${lastError}`);
  }
}

export function sessionIdOf(d: any): string | undefined {
  const id = d?.id ?? d?.chat_session?.id;
  return typeof id === "string" && id ? id : undefined;
}
