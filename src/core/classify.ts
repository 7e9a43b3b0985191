// Core's JSON envelope and the classification of failed calls (core-upstream §4). First match wins.

export type CoreFailureKind =
  | "upstream_pow_failed"
  | "upstream_auth"
  | "upstream_busy"
  | "upstream_invalid_ref_file_id"
  | "input_exceeds_limit"
  | "upstream_rate_limited"
  | "upstream_error";

const AUTH_CODES = new Set([40001, 40002, 40003]);
const AUTH_WORDS = ["token", "unauthorized", "expired", "not login", "login required", "invalid jwt"];
const AUTH_WORDS_BIZ = ["auth", "authorization", "credential", "expired", "invalid jwt", "jwt", "login", "not login", "session expired", "token", "unauthorized", "登录", "未登录", "认证", "凭证", "会话过期", "令牌"];
export const BUSY_TEXT = "有消息正在生成";
const INVALID_REF = "invalid ref file id";

const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : 0);

export interface Envelope {
  code: number;
  msg: string;
  bizCode: number;
  bizMsg: string;
  bizData: unknown;
}

export function readEnvelope(body: unknown): Envelope {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const data = (b.data && typeof b.data === "object" ? b.data : {}) as Record<string, unknown>;
  const bizData = data.biz_data;
  const bizDataMsg = bizData && typeof bizData === "object" && typeof (bizData as Record<string, unknown>).msg === "string" ? ((bizData as Record<string, unknown>).msg as string) : "";
  return {
    code: num(b.code),
    msg: typeof b.msg === "string" ? b.msg : "",
    bizCode: num(data.biz_code),
    bizMsg: typeof data.biz_msg === "string" && data.biz_msg ? data.biz_msg : bizDataMsg,
    bizData,
  };
}

function isEnvelope(v: unknown): v is Envelope {
  return !!v && typeof v === "object" && "bizCode" in v && "bizMsg" in v;
}

/** Failure text: biz_msg, else biz_data.msg, else msg. Takes a read envelope or a raw response body. */
export function envelopeMessage(e: Envelope | unknown): string {
  const env = isEnvelope(e) ? e : readEnvelope(e);
  return env.bizMsg || env.msg;
}

/**
 * Success = HTTP 200 and code 0 and biz_code 0 (missing codes count as 0, floats compare numerically). The
 * caller still checks that the field it needs is there. Takes a read envelope or a raw response body.
 */
export function isEnvelopeSuccess(httpStatus: number, e: Envelope | unknown): boolean {
  const env = isEnvelope(e) ? e : readEnvelope(e);
  return httpStatus === 200 && env.code === 0 && env.bizCode === 0;
}

export interface FailedCall {
  httpStatus: number;
  body: unknown;
}

/** The §4 kind of a failed call; first match wins. */
export function classifyFailure(call: FailedCall): CoreFailureKind;
export function classifyFailure(httpStatus: number, body: unknown): CoreFailureKind;
export function classifyFailure(a: number | FailedCall, b?: unknown): CoreFailureKind {
  const httpStatus = typeof a === "number" ? a : a.httpStatus;
  const body = typeof a === "number" ? b : a.body;
  const e = readEnvelope(body);
  const msg = e.msg.toLowerCase();
  const bizMsg = e.bizMsg.toLowerCase();
  const message = `${msg} ${bizMsg}`;
  const authStatus = httpStatus === 401 || httpStatus === 403;
  const authCode = AUTH_CODES.has(e.code) || AUTH_CODES.has(e.bizCode);
  if (!authStatus && !authCode && message.includes("pow")) return "upstream_pow_failed";
  if (authStatus || authCode || AUTH_WORDS.some((w) => message.includes(w))) return "upstream_auth";
  if (httpStatus === 200 && e.code === 0 && e.bizCode !== 0 && AUTH_WORDS_BIZ.some((w) => message.includes(w))) return "upstream_auth";
  if (message.includes(BUSY_TEXT)) return "upstream_busy";
  if (e.bizCode === 9 || msg.trim() === INVALID_REF || bizMsg.trim() === INVALID_REF) return "upstream_invalid_ref_file_id";
  if (httpStatus === 429) return "upstream_rate_limited";
  return "upstream_error";
}

/** The kind of an in-stream `{"type":"error",…}` line (core-upstream §7.13, §7.15 step 6). */
export function classifyStreamError(obj: Record<string, unknown>): CoreFailureKind | "upstream_timeout" {
  // Errors the gateway itself wrote into a broken stream carry their code (core/completion.ts).
  if (obj.gateway_code === "upstream_timeout") return "upstream_timeout";
  if (obj.finish_reason === "input_exceeds_limit") return "input_exceeds_limit";
  const content = typeof obj.content === "string" ? obj.content : "";
  // "By §4 on the content": the content is the failure message of a call that is not an HTTP-level failure.
  const kind = classifyFailure(200, { msg: content });
  return kind === "upstream_rate_limited" ? "upstream_error" : kind;
}
