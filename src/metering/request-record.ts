// One row of the request log (issue 31) and how it is made from a request's state when its response ends.
// What may be stored is chosen here: the key's name and fingerprint (never the key), the account masked, the
// path redacted as the access log redacts it, no prompt and no answer.
import type { Config } from "../config/schema";
import { redactPath } from "../util/log";
import type { RequestState } from "./request-state";
import { callerFingerprint } from "../util/hash";
import { maskLabel } from "./mask-label";
import { routeSurface } from "./route-surface";
import { text1, type Attempts, type TimelineJson } from "./timeline";

export interface RequestRecord {
  /** Arrival, Unix milliseconds. */
  ts: number;
  request_id: string;
  instance: string;
  method: string;
  path: string;
  route: string;
  /** The route's own surface (route-surface.ts): chat, messages, models, admin, health, unknown… */
  surface: string;
  key_name: string;
  /** caller:<16 hex> of the configured key the request was admitted on; "" otherwise. */
  key_fp: string;
  /** managed, passthrough, or "" (no business credential: admin, an auth failure). */
  caller_kind: string;
  client_ip: string;
  user_agent: string;
  model: string;
  resolved_model: string;
  stream: boolean;
  status: number;
  error_code: string;
  aborted: boolean;
  /** Masked account label (mask-label.ts). */
  account: string;
  attempts: Attempts;
  input_tokens: number | null;
  output_tokens: number | null;
  reasoning_tokens: number | null;
  duration_ms: number;
  ttft_ms: number | null;
  queue_ms: number | null;
  timeline: TimelineJson;
  /** The chat history entry, "" when none was recorded. */
  history_id: string;
  /** The error's message as the client got it (so never a secret), "" when none; capped at ERROR_MESSAGE_MAX. */
  error_message: string;
}

const NO_ATTEMPTS: Attempts = { accounts: 0, core_attempts: 0, empty_output_retries: 0, continue_rounds: 0 };
const UA_MAX = 256;
const ERROR_MESSAGE_MAX = 500;

/** Key fingerprint → name, rebuilt only when the (frozen, replaced-on-change) config object changes. */
export class KeyNames {
  private indexed: { config: Config; names: Map<string, string> } | null = null;

  nameOf(config: Config, fp: string): string {
    if (this.indexed?.config !== config) {
      const names = new Map<string, string>();
      for (const k of config.keys ?? []) names.set(callerFingerprint(k), "");
      for (const r of config.api_keys ?? []) names.set(callerFingerprint(r.key), r.name ?? "");
      this.indexed = { config, names };
    }
    return this.indexed.names.get(fp) ?? "";
  }
}

/** The stored columns, in the order of a row's values (rowOf) and of the insert statement (request-log.ts). */
export const COLUMNS = [
  "ts", "request_id", "instance", "method", "path", "route", "surface", "key_name", "key_fp", "caller_kind", "client_ip",
  "user_agent", "model", "resolved_model", "stream", "status", "error_code", "aborted", "account", "input_tokens",
  "output_tokens", "reasoning_tokens", "duration_ms", "ttft_ms", "queue_ms", "attempts", "timeline", "history_id",
  "error_message",
] as const;

/** One row as the insert binds it: COLUMNS' values in order, booleans as 0/1, attempts and timeline as JSON text. */
export type RowValues = (string | number | null)[];

const NO_ATTEMPTS_TEXT = attemptsText(NO_ATTEMPTS);

function attemptsText(a: Attempts): string {
  return `{"accounts":${a.accounts},"core_attempts":${a.core_attempts},"empty_output_retries":${a.empty_output_retries},"continue_rounds":${a.continue_rounds}}`;
}

// The masked label of each account seen (mask-label.ts), so a request's end does no string surgery. Accounts are
// the configured ones; the bound only guards against a store of ids that changes without end.
const masked = new Map<string, string>();
function maskedAccount(id: string): string {
  let label = masked.get(id);
  if (label === undefined) {
    if (masked.size >= 4096) masked.clear();
    masked.set(id, (label = maskLabel(id)));
  }
  return label;
}

/**
 * A request's row, made when its response ends: the values bound by the insert, built straight from the state —
 * no record object, no JSON.stringify — because this runs on every request's path (issue 31: ≤ 3 % of req/s).
 * `surface` is the route's own (route-surface.ts), already worked out by the caller for the metrics.
 */
export function rowOf(
  state: RequestState,
  status: number,
  request: { method: string; headers: Headers } | undefined,
  opts: { instance: string; now: number; keyName: string; surface: string },
): RowValues {
  const totalMs = performance.now() - state.start;
  const tl = state.timeline;
  let timeline: string;
  let ttft: number | null = null;
  let queueMs: number | null = null;
  if (tl) {
    // A stream without a timeline's first token (no model call) still has its first byte to the client.
    const firstToken = tl.firstTokenMs() ?? state.ttfbMs;
    timeline = tl.jsonText(totalMs, firstToken);
    ttft = firstToken ?? null;
    queueMs = tl.queueMs();
  } else timeline = `{"total_ms":${text1(totalMs)}}`;
  const ua = request?.headers.get("user-agent") ?? "";
  return [
    opts.now - Math.round(totalMs),
    state.id,
    opts.instance,
    request?.method ?? "",
    redactPath(state.path, state.search),
    state.route ?? "",
    opts.surface,
    opts.keyName,
    state.configuredKey ?? state.admittedKey ?? "",
    state.mode ?? "",
    state.clientIp,
    ua.length > UA_MAX ? ua.slice(0, UA_MAX) : ua,
    state.model ?? "",
    state.resolvedModel ?? "",
    state.stream ? 1 : 0,
    status,
    state.errorCode ?? "",
    state.aborted ? 1 : 0,
    state.account ? maskedAccount(state.account) : "",
    state.inputTokens ?? null,
    state.outputTokens ?? null,
    state.reasoningTokens ?? null,
    Math.round(totalMs),
    ttft,
    queueMs,
    tl ? attemptsText(tl.attempts) : NO_ATTEMPTS_TEXT,
    timeline,
    state.historyId ?? "",
    state.errorMessage ? (state.errorMessage.length > ERROR_MESSAGE_MAX ? state.errorMessage.slice(0, ERROR_MESSAGE_MAX) : state.errorMessage) : "",
  ];
}

/** A row's values from a record (rows that arrive as records: another instance's, a test's). */
export function toRow(r: RequestRecord): RowValues {
  return COLUMNS.map((c) => {
    const v = r[c];
    if (typeof v === "boolean") return v ? 1 : 0;
    if (v !== null && typeof v === "object") return JSON.stringify(v);
    // A record from an instance that predates a column (Redis replication during an upgrade) lacks it.
    return v === undefined ? null : (v as string | number | null);
  });
}

/** A record from a row's values (what the Redis replication publishes; only Redis mode pays for it). */
export function recordOfRow(values: RowValues): RequestRecord {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < COLUMNS.length; i++) out[COLUMNS[i]!] = values[i];
  out.stream = values[14] === 1;
  out.aborted = values[17] === 1;
  out.attempts = JSON.parse(String(values[25]));
  out.timeline = JSON.parse(String(values[26]));
  return out as unknown as RequestRecord;
}
