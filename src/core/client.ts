// The gateway's client for core (core-upstream §5): login, sessions, PoW, one completion attempt (joined over
// its continue rounds by completion.ts) and uploads (upload.ts). Every call goes through coreFetch (identity
// headers, timeouts, proxy); every failure is a CoreError classified by §4.
import { classifyFailure, envelopeMessage, isEnvelopeSuccess, readEnvelope } from "./classify";
import { CoreError, LoginError, scrubSecrets, withOrigin } from "./errors";
import { coreCall, coreFetch, pathOnly, safeOrigin, type CoreReply, type CoreRequest } from "./http";
import type { ProxySpec } from "./proxy-spec";
import { PATHS } from "./wire";
import type { WireConfig } from "./wire";
import { parseChallenge, powHeader, PowChallengeError, type PowChallenge } from "./pow/challenge";
import { openCompletion, type CompletionRequest, type CoreCompletion } from "./completion";
import { uploadFile, type CoreFile, type UploadInput, type UploadOptions } from "./upload";

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

/** What the client needs of the PoW worker pool (src/core/pow/pool.ts). */
export interface PowSolver {
  solve(challenge: PowChallenge, signal?: AbortSignal): Promise<number | null>;
}

export interface SolvedPow {
  header: string;
  challenge: PowChallenge;
}

export interface SessionPage {
  /** Sessions on the first page (the account test's session_count). */
  count: number;
  hasMore: boolean;
}

/** Login mobile form (§5.1): digits only; 13 digits starting with 86 lose the 86. */
export function loginMobile(mobile: string): string {
  const digits = mobile.replace(/\D/g, "");
  return digits.length === 13 && digits.startsWith("86") ? digits.slice(2) : digits;
}

/** The §5.1 login body: trimmed password, email (wins) or mobile with area_code null, device id, os. */
export function loginBody(acc: LoginAccount, wire: Pick<WireConfig, "device_id" | "client_platform">): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const email = acc.email?.trim();
  if (email) body.email = email;
  else {
    body.mobile = loginMobile(acc.mobile ?? "");
    body.area_code = null;
  }
  body.password = (acc.password ?? "").trim();
  body.device_id = acc.device_id?.trim() || wire.device_id;
  body.os = wire.client_platform;
  return body;
}

/** The session id of either create-session reply shape (§5.2). */
export function sessionIdOf(d: unknown): string | undefined {
  const o = d as { id?: unknown; chat_session?: { id?: unknown } } | null | undefined;
  const id = o?.id ?? o?.chat_session?.id;
  return typeof id === "string" && id ? id : undefined;
}

/** The answer's JSON, or null when it is empty or not JSON (classified by its status then, §4). */
function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class CoreClient {
  constructor(
    readonly wire: WireConfig,
    readonly baseUrl: string,
    private readonly pow: PowSolver,
  ) {}

  /** A streaming call (core's completion and continue rounds): the Response, its body still to be read. */
  fetch(req: CoreRequest): Promise<Response> {
    return coreFetch(this.wire, this.baseUrl, req);
  }

  /** An ordinary call read to its end (status, text, content type); a CoreError when there was no answer. */
  reply(req: CoreRequest): Promise<CoreReply> {
    return coreCall(this.wire, this.baseUrl, req);
  }

  /** A JSON call: biz_data on success (and `need` satisfied); a classified CoreError otherwise. */
  async call(req: CoreRequest, need?: (bizData: any) => unknown): Promise<any> {
    const res = await this.reply(req);
    const body = parseBody(res.text);
    const env = readEnvelope(body);
    const ok = isEnvelopeSuccess(res.status, env);
    if (ok && (!need || need(env.bizData))) return env.bizData;
    // A success envelope without the needed field is a generic failure (§4).
    const kind = ok ? "upstream_error" : classifyFailure(res.status, body);
    const msg = envelopeMessage(env) || (ok ? "reply lacks the expected field" : `HTTP ${res.status}`);
    throw new CoreError(kind, `${pathOnly(req.path)}: ${scrubSecrets(msg, req.token)}`, res.status);
  }

  /** §5.1. Resolves with the token; a LoginError says whether core refused, was unreachable or odd. */
  async login(acc: LoginAccount, opts: CallOptions = {}): Promise<string> {
    const password = (acc.password ?? "").trim();
    let res: CoreReply;
    try {
      res = await this.reply({ method: "POST", path: PATHS.login, json: loginBody(acc, this.wire), ...opts });
    } catch (e) {
      if (opts.signal?.aborted) throw e;
      // coreFetch's message already names the path and the cause (proxy, address, errno).
      const err = new LoginError("unreachable", e instanceof CoreError ? scrubSecrets(e.message, password) : `login: ${scrubSecrets((e as Error).message, password)}`);
      if (e instanceof CoreError && e.origin) err.origin = e.origin;
      throw err;
    }
    const rawText = res.text;
    const body = parseBody(rawText);
    // A 5xx is core failing, not core judging the credentials (issue 15: it must not cool the account down).
    if (res.status >= 500) throw new LoginError("unreachable", `login: core answered HTTP ${res.status}`, res.status);
    // Core's login path always answers JSON: 404, 405 or a web page means the base URL leads somewhere else.
    const html = /^\s*</.test(rawText) || res.contentType.includes("text/html");
    if (res.status === 404 || res.status === 405 || html)
      throw withOrigin(
        new LoginError(
          "unreachable",
          `login: ${safeOrigin(this.baseUrl)}${PATHS.login} answered HTTP ${res.status}${html ? " with a web page" : ""}; the base URL looks wrong (set upstream.base_url or SVC_CORE_BASE_URL to core's origin)`,
          res.status,
        ),
        "base_url",
      );
    const env = readEnvelope(body);
    const token = (env.bizData as { user?: { token?: unknown } } | null)?.user?.token;
    if (isEnvelopeSuccess(res.status, env) && typeof token === "string" && token) return token;
    // Failure text per §5.1: code != 0 → msg; biz_code != 0 → biz_msg.
    const text = env.code !== 0 ? env.msg || env.bizMsg : env.bizMsg || env.msg;
    if (res.status !== 200 || env.code !== 0 || env.bizCode !== 0)
      throw new LoginError("rejected", `login failed: ${scrubSecrets(text || `HTTP ${res.status}`, password)}`, res.status);
    throw new LoginError("malformed", "login failed: core's reply carries no token", res.status);
  }

  async createSession(token: string, opts: CallOptions = {}): Promise<string> {
    const data = await this.call({ method: "POST", path: PATHS.sessionCreate, token, json: { agent: "chat" }, ...opts }, sessionIdOf);
    return sessionIdOf(data)!;
  }

  /** The first page of sessions (§5.3). */
  async listSessions(token: string, opts: CallOptions = {}): Promise<SessionPage> {
    const data = await this.call({ method: "GET", path: PATHS.sessionList, token, ...opts });
    return { count: Array.isArray(data?.chat_sessions) ? data.chat_sessions.length : 0, hasMore: data?.has_more === true };
  }

  async countSessions(token: string, opts: CallOptions = {}): Promise<number> {
    return (await this.listSessions(token, opts)).count;
  }

  async deleteSession(token: string, sessionId: string, opts: CallOptions = {}): Promise<void> {
    await this.call({ method: "POST", path: PATHS.sessionDelete, token, json: { chat_session_id: sessionId }, timeoutMs: this.wire.delete_timeout_ms, ...opts });
  }

  /** §5.4: success needs only HTTP 200 and code 0. */
  async deleteAllSessions(token: string, opts: CallOptions = {}): Promise<void> {
    const res = await this.reply({ method: "POST", path: PATHS.sessionDeleteAll, token, json: {}, timeoutMs: this.wire.delete_timeout_ms, ...opts });
    const body = parseBody(res.text);
    const env = readEnvelope(body);
    if (res.status !== 200 || env.code !== 0)
      throw new CoreError(classifyFailure(res.status, body), `${PATHS.sessionDeleteAll}: ${scrubSecrets(envelopeMessage(env) || `HTTP ${res.status}`, token)}`, res.status);
  }

  /** §5.5: a challenge for `target`, validated by §6.1 (throws PowChallengeError when refused). */
  async getPowChallenge(token: string, target: string, opts: CallOptions = {}): Promise<PowChallenge> {
    const data = await this.call({ method: "POST", path: PATHS.powChallenge, token, json: { target_path: target }, ...opts }, (d) => d?.challenge);
    return parseChallenge(data.challenge, this.wire.pow_algorithm);
  }

  /** A fresh challenge solved in the worker pool; a refused or unsolvable one is replaced once (§6.1). */
  async solvePow(token: string, target: string, opts: CallOptions = {}): Promise<SolvedPow> {
    let lastError = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      let challenge: PowChallenge;
      try {
        challenge = await this.getPowChallenge(token, target, opts);
      } catch (e) {
        if (!(e instanceof PowChallengeError)) throw e;
        lastError = e.message;
        continue;
      }
      const answer = await this.pow.solve(challenge, opts.signal);
      if (answer !== null) return { header: powHeader(challenge, answer), challenge };
      lastError = "no answer below the difficulty";
    }
    throw new CoreError("upstream_pow_failed", `PoW failed: ${lastError}`);
  }

  /** One completion attempt on an existing session, joined over its continue rounds (§5.6, §7.10). */
  completion(req: CompletionRequest): Promise<CoreCompletion> {
    return openCompletion(this, req);
  }

  /** §5.8 upload with PoW, then §9.2 polling until the file is ready. */
  uploadFile(token: string, input: UploadInput, opts: UploadOptions = {}): Promise<CoreFile> {
    return uploadFile(this, token, input, opts);
  }
}
