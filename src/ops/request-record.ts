// One row of the request log (issue 31) and how it is made from a request's state when its response ends.
// What may be stored is chosen here: the key's name and fingerprint (never the key), the account masked, the
// path redacted as the access log redacts it, no prompt and no answer.
import type { Config } from "../config/schema";
import { redactPath } from "../util/log";
import type { RequestState } from "./request-state";
import { callerFingerprint } from "../util/hash";
import { maskLabel } from "./mask-label";
import { routeSurface } from "./route-surface";
import type { Attempts, TimelineJson } from "./timeline";

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
}

const NO_ATTEMPTS: Attempts = { accounts: 0, core_attempts: 0, empty_output_retries: 0, continue_rounds: 0 };
const UA_MAX = 256;

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

export function recordOf(
  state: RequestState,
  status: number,
  request: { method: string; headers: Headers } | undefined,
  opts: { instance: string; now: number; keyName: string },
): RequestRecord {
  const totalMs = performance.now() - state.start;
  const tl = state.timeline;
  const timeline = tl ? tl.toJSON(totalMs) : { total_ms: Math.round(totalMs * 10) / 10 };
  // A stream without a timeline's first token (no model call) still has its first byte to the client.
  if (timeline.first_token_ms === undefined && state.ttfbMs !== undefined && tl) timeline.first_token_ms = state.ttfbMs;
  const ua = request?.headers.get("user-agent") ?? "";
  return {
    ts: opts.now - Math.round(totalMs),
    request_id: state.id,
    instance: opts.instance,
    method: request?.method ?? "",
    path: redactPath(state.path, state.search),
    route: state.route ?? "",
    surface: routeSurface(request?.method ?? "GET", state.route, state.path),
    key_name: opts.keyName,
    key_fp: state.configuredKey ?? state.admittedKey ?? "",
    caller_kind: state.mode ?? "",
    client_ip: state.clientIp,
    user_agent: ua.length > UA_MAX ? ua.slice(0, UA_MAX) : ua,
    model: state.model ?? "",
    resolved_model: state.resolvedModel ?? "",
    stream: state.stream,
    status,
    error_code: state.errorCode ?? "",
    aborted: state.aborted,
    account: state.account ? maskLabel(state.account) : "",
    attempts: tl ? { ...tl.attempts } : NO_ATTEMPTS,
    input_tokens: state.inputTokens ?? null,
    output_tokens: state.outputTokens ?? null,
    reasoning_tokens: state.reasoningTokens ?? null,
    duration_ms: Math.round(totalMs),
    ttft_ms: timeline.first_token_ms ?? null,
    queue_ms: timeline.queue?.ms ?? null,
    timeline,
    history_id: state.historyId ?? "",
  };
}
