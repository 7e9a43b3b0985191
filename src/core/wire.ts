// Every value that identifies the gateway to core, and every endpoint path (core-upstream §1, §3, §5), in one
// place. The `upstream` configuration section overrides the defaults so an operator can follow core's current
// mobile client without a rebuild; nothing else in src/ should spell these strings.

export const PATHS = {
  login: "/api/v0/users/login",
  sessionCreate: "/api/v0/chat_session/create",
  sessionList: "/api/v0/chat_session/fetch_page?lte_cursor.pinned=false",
  sessionDelete: "/api/v0/chat_session/delete",
  sessionDeleteAll: "/api/v0/chat_session/delete_all",
  powChallenge: "/api/v0/chat/create_pow_challenge",
  completion: "/api/v0/chat/completion",
  continue: "/api/v0/chat/continue",
  upload: "/api/v0/file/upload_file",
  fetchFiles: "/api/v0/file/fetch_files",
  probe: "/",
} as const;

/** The PoW target of a completion and of a continue (§5.5, §5.7): continue re-uses the completion target. */
export const COMPLETION_TARGET = PATHS.completion;
export const UPLOAD_TARGET = PATHS.upload;

/** Fixed header values of §3 (not configurable: core's client always sends these). */
export const FIXED_HEADERS = {
  Accept: "application/json",
  "accept-charset": "UTF-8",
} as const;

/** Upload headers of §5.8 other than the PoW header. */
export const UPLOAD_HEADERS = {
  fileSize: "x-file-size",
  modelType: "x-model-type",
  thinking: "x-thinking-enabled",
} as const;

/** The completion body fields copied verbatim from the gateway's client when present (§5.6). */
export const PASS_THROUGH_FIELDS = ["temperature", "top_p", "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty", "stop"] as const;

/** §1 defaults. `pow_workers` is computed from the CPU count (config/effective.ts) and not part of the wire. */
export const WIRE_DEFAULTS = {
  pow_algorithm: "CoreHashV1",
  pow_header: "x-core-pow-response",
  user_agent: "CoreApp/2.0.4 Android/35",
  client_version: "2.0.4",
  client_platform: "android",
  client_locale: "zh_CN",
  device_id: "svc-gateway",
  request_timeout_ms: 60_000,
  connect_timeout_ms: 15_000,
  stream_idle_timeout_ms: 300_000,
  max_continue_rounds: 8,
  file_poll_interval_ms: 1000,
  file_poll_max: 60,
  file_poll_timeout_ms: 65_000,
  delete_timeout_ms: 10_000,
  /**
   * Which HTTP client reads core's completion streams: "socket" (core/http1/, a silent stream holds ≈ 14 KB
   * less; issue 35) or "fetch" (Bun's). Every other call to core uses fetch.
   */
  stream_client: "fetch",
  /**
   * Which HTTP client makes the ordinary calls (login, session, PoW challenge, deletes, file polls): "fetch"
   * (Bun's, its own thread does the socket work) or "socket" (core/http1/, the whole answer read on a kept-alive
   * connection: less CPU per call in isolation and less latency, but the work moves onto the main thread and the
   * gateway served fewer requests/s with it; docs/PERFORMANCE.md, issue 35). Uploads of a form always use fetch.
   */
  call_client: "fetch",
} as const;

type Widen<T> = { -readonly [K in keyof T]: T[K] extends number ? number : string };

/** What the core client needs of the `upstream` section. `EffectiveUpstream` (config) is a superset. */
export type WireConfig = Widen<typeof WIRE_DEFAULTS> & {
  /** core's origin; null when none is configured (demo mode picks the simulator). */
  base_url: string | null;
};
