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

/** Failure text: biz_msg, else biz_data.msg, else msg. */
export function envelopeMessage(e: Envelope): string {
  return e.bizMsg || e.msg;
}

export function isEnvelopeSuccess(httpStatus: number, e: Envelope): boolean {
  return httpStatus === 200 && e.code === 0 && e.bizCode === 0;
}

export function classifyFailure(httpStatus: number, body: unknown): CoreFailureKind {
  const e = readEnvelope(body);
  const message = `${e.msg} ${e.bizMsg}`.toLowerCase();
  const authStatus = httpStatus === 401 || httpStatus === 403;
  const authCode = AUTH_CODES.has(e.code) || AUTH_CODES.has(e.bizCode);
  if (!authStatus && !authCode && message.includes("pow")) return "upstream_pow_failed";
  if (authStatus || authCode || AUTH_WORDS.some((w) => message.includes(w))) return "upstream_auth";
  if (httpStatus === 200 && e.code === 0 && e.bizCode !== 0 && AUTH_WORDS_BIZ.some((w) => message.includes(w))) return "upstream_auth";
  if (message.includes(BUSY_TEXT)) return "upstream_busy";
  if (e.bizCode === 9 || message.trim() === "invalid ref file id") return "upstream_invalid_ref_file_id";
  if (httpStatus === 429) return "upstream_rate_limited";
  return "upstream_error";
}

/** The kind of an in-stream `{"type":"error",…}` line (core-upstream §7.13). */
export function classifyStreamError(obj: Record<string, unknown>): CoreFailureKind | "upstream_timeout" {
  // Errors the gateway itself wrote into a broken stream carry their code (core/completion.ts).
  if (obj.gateway_code === "upstream_timeout") return "upstream_timeout";
  if (obj.finish_reason === "input_exceeds_limit") return "input_exceeds_limit";
  const content = typeof obj.content === "string" ? obj.content : "";
  if (content.includes(BUSY_TEXT)) return "upstream_busy";
  const kind = classifyFailure(200, { code: 0, msg: content, data: { biz_code: 1, biz_msg: content } });
  return kind === "upstream_invalid_ref_file_id" ? kind : kind === "upstream_auth" || kind === "upstream_pow_failed" ? kind : "upstream_error";
}
