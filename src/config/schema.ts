// The configuration object as one TypeBox schema (gateway.md "Configuration object", D2.6, D2.11,
// core-upstream.md §1). Every known field is optional: a missing field means its default (defaults.ts).
// `null` is accepted wherever a field is optional and means the same as absent, because configs exported
// by older tools carry nulls. Unknown fields are allowed at every level so round trips keep them (D2.6).
// A `problem` option on a schema is the wording validate.ts uses when that field is wrong.
import { Type, type Static, type TSchema } from "@sinclair/typebox";

/** Optional and nullable: absent or null both mean "use the default". */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Int = (minimum: number, maximum: number) => Type.Integer({ minimum, maximum });
const Str = () => Type.String();

export const KEY_PROBLEM = "must be a key of 1 to 256 characters with no whitespace";
export const ApiKeyString = Type.String({ minLength: 1, maxLength: 256, pattern: "^\\S+$", problem: KEY_PROBLEM });

/** Per-key limits (issue 20); absent or null = unlimited. */
export const KeyQuotaSchema = Type.Object({
  requests_per_minute: Opt(Int(1, 1_000_000)),
  tokens_per_day: Opt(Int(1, 1_000_000_000_000)),
});

export const ApiKeyRecordSchema = Type.Object({
  key: ApiKeyString,
  name: Opt(Str()),
  remark: Opt(Str()),
  quota: Opt(KeyQuotaSchema),
  /** Issue 31: false refuses the key with 401 key_disabled (it stays a configured key); absent = enabled. */
  enabled: Opt(Type.Boolean()),
  /** Issue 31: Unix seconds after which the key is refused with 401 key_expired; absent = never. */
  expires_at: Opt(Type.Integer({ minimum: 0 })),
  /** Issue 31: resolved model ids the key may use (403 model_not_allowed otherwise); absent or empty = all. */
  allowed_models: Opt(Type.Array(Type.String({ minLength: 1 }))),
});

export const AccountSchema = Type.Object({
  email: Opt(Str()),
  mobile: Opt(Str()),
  password: Opt(Str()),
  token: Opt(Str()),
  name: Opt(Str()),
  remark: Opt(Str()),
  proxy_id: Opt(Str()),
  device_id: Opt(Str()),
  // Issue 32: this account's pacing, over runtime.account_min_interval_ms / account_daily_completions.
  min_interval_ms: Opt(Int(0, 86_400_000)),
  daily_completions: Opt(Int(0, 1_000_000)),
});

export const PROXY_TYPES = ["http", "socks5", "socks5h"] as const;

export const ProxySchema = Type.Object({
  // Always present after load: validate.ts generates a missing id (D0.2).
  id: Type.String({ minLength: 1 }),
  name: Opt(Str()),
  type: Type.Union(PROXY_TYPES.map((t) => Type.Literal(t))),
  host: Type.String({ minLength: 1, pattern: "^[^\\s/]+$", problem: "must be a host name or address with no scheme and no whitespace" }),
  port: Int(1, 65535),
  username: Opt(Str()),
  password: Opt(Str()),
});

export const AdminSchema = Type.Object({
  password_hash: Opt(Str()),
  jwt_expire_hours: Opt(Int(1, 720)),
  jwt_valid_after_unix: Opt(Type.Integer({ minimum: 0 })),
});

export const LIMIT_MAX = 200_000;

export const RuntimeSchema = Type.Object({
  account_max_inflight: Opt(Int(1, 256)),
  global_max_inflight: Opt(Type.Integer({ minimum: 1, maximum: LIMIT_MAX, problem: `must be null or an integer between 1 and ${LIMIT_MAX}` })),
  account_max_queue: Opt(Type.Integer({ minimum: 0, maximum: LIMIT_MAX, problem: `must be null or an integer between 0 and ${LIMIT_MAX}` })),
  queue_wait_seconds: Opt(Int(1, 3600)),
  token_refresh_interval_hours: Opt(Int(1, 720)),
  // Issue 32: least time between two completion starts on one account (+ up to 25 % jitter); 0 = off.
  account_min_interval_ms: Opt(Int(0, 86_400_000)),
  // Issue 32: completions per account per UTC day; 0 = no cap.
  account_daily_completions: Opt(Int(0, 1_000_000)),
});

export const ResponsesSchema = Type.Object({
  store_ttl_seconds: Opt(Int(30, 86_400)),
  store_max_entries: Opt(Int(100, 1_000_000)),
});

export const EMBEDDING_PROVIDERS = ["mock", "deterministic", "builtin", ""] as const;

export const EmbeddingsSchema = Type.Object({
  provider: Opt(Type.Union(EMBEDDING_PROVIDERS.map((p) => Type.Literal(p)))),
  dimensions: Opt(Int(1, 4096)),
});

export const CompatSchema = Type.Object({
  wide_input_strict_output: Opt(Type.Boolean()),
  strip_reference_markers: Opt(Type.Boolean()),
});

export const AUTO_DELETE_MODES = ["none", "single", "all"] as const;

export const AutoDeleteSchema = Type.Object({
  mode: Opt(Type.Union(AUTO_DELETE_MODES.map((m) => Type.Literal(m)))),
  /** Legacy: `true` means mode `all` when `mode` is absent. */
  sessions: Opt(Type.Boolean()),
});

export const CurrentInputFileSchema = Type.Object({
  enabled: Opt(Type.Boolean()),
  min_chars: Opt(Int(0, 100_000_000)),
});

export const ChatHistorySchema = Type.Object({
  limit: Opt(Int(0, 1000)),
});

/** GET /metrics (issue 20): open when `public`, else the admin credential or `token` as a bearer. */
export const MetricsSchema = Type.Object({
  public: Opt(Type.Boolean()),
  token: Opt(Str()),
});

/** The request log (issue 31): one row per answered request, in <data dir>/requests.sqlite. */
export const RequestLogSchema = Type.Object({
  enabled: Opt(Type.Boolean()),
  retention_days: Opt(Int(1, 3650)),
  max_rows: Opt(Int(1000, 100_000_000)),
});

export const ReleaseSchema = Type.Object({
  // Checked as an absolute http(s) URL by validate.ts; "" means unset.
  feed_url: Opt(Str()),
  feed_token: Opt(Str()),
});

// Ranges for the upstream section are not fixed by the specs; these bounds only reject values that
// cannot be meant (zero or negative timeouts, absurd worker counts).
const Ms = (max: number) => Opt(Int(1, max));
const HOUR_MS = 3_600_000;

export const UpstreamSchema = Type.Object({
  // Checked as an absolute http(s) URL by validate.ts; "" means unset.
  base_url: Opt(Str()),
  pow_algorithm: Opt(Type.String({ minLength: 1 })),
  pow_header: Opt(Type.String({ minLength: 1, pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", problem: "must be an HTTP header name" })),
  user_agent: Opt(Type.String({ minLength: 1 })),
  client_version: Opt(Type.String({ minLength: 1 })),
  client_platform: Opt(Type.String({ minLength: 1 })),
  client_locale: Opt(Type.String({ minLength: 1 })),
  device_id: Opt(Type.String({ minLength: 1 })),
  request_timeout_ms: Ms(HOUR_MS),
  connect_timeout_ms: Ms(HOUR_MS),
  stream_idle_timeout_ms: Ms(24 * HOUR_MS),
  /** D9.8 as amended: how long an answer may take to start, queue waits excluded (default 120 000). */
  total_timeout_ms: Ms(24 * HOUR_MS),
  max_continue_rounds: Opt(Int(0, 100)),
  pow_workers: Opt(Int(1, 64)),
  file_poll_interval_ms: Ms(HOUR_MS),
  file_poll_max: Opt(Int(1, 100_000)),
  file_poll_timeout_ms: Ms(24 * HOUR_MS),
  delete_timeout_ms: Ms(HOUR_MS),
  /** Issue 35: the client that reads core's completion streams ("socket", the default, or Bun's "fetch"). */
  stream_client: Opt(Type.Union([Type.Literal("socket"), Type.Literal("fetch")])),
  /** Issue 35: the client of the ordinary calls (login, session, PoW challenge): "fetch" (the default) or "socket". */
  call_client: Opt(Type.Union([Type.Literal("socket"), Type.Literal("fetch")])),
});

/** Shared state (issue 21): memory (one process, the default) or Redis shared by several instances. */
export const StoreSchema = Type.Object({
  backend: Opt(Type.Union([Type.Literal("memory"), Type.Literal("redis")])),
  redis_url: Opt(Type.String({ pattern: "^rediss?://", problem: "must be a redis:// or rediss:// URL" })),
  key_prefix: Opt(Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9:_.-]+$" })),
  lease_ttl_seconds: Opt(Int(3, 300)),
});

/** The listener's surroundings (issue 33): proxies whose forwarding headers name the client (src/http/client-address.ts). */
export const ServerSchema = Type.Object({
  // Each entry is checked as an IP address or CIDR range by validate.ts.
  trusted_proxies: Opt(Type.Array(Type.String({ minLength: 1 }))),
});

export const ConfigSchema = Type.Object({
  keys: Opt(Type.Array(ApiKeyString)),
  api_keys: Opt(Type.Array(ApiKeyRecordSchema)),
  accounts: Opt(Type.Array(AccountSchema)),
  proxies: Opt(Type.Array(ProxySchema)),
  model_aliases: Opt(Type.Record(Type.String({ minLength: 1 }), Type.String())),
  admin: Opt(AdminSchema),
  runtime: Opt(RuntimeSchema),
  responses: Opt(ResponsesSchema),
  embeddings: Opt(EmbeddingsSchema),
  compat: Opt(CompatSchema),
  auto_delete: Opt(AutoDeleteSchema),
  current_input_file: Opt(CurrentInputFileSchema),
  /** Legacy, kept on round trips, never read (D2.6). */
  history_split: Type.Optional(Type.Unknown()),
  chat_history: Opt(ChatHistorySchema),
  release: Opt(ReleaseSchema),
  metrics: Opt(MetricsSchema),
  request_log: Opt(RequestLogSchema),
  upstream: Opt(UpstreamSchema),
  store: Opt(StoreSchema),
  server: Opt(ServerSchema),
  _host_sync_hash: Opt(Str()),
  _host_sync_time: Opt(Type.Integer({ minimum: 0 })),
  /** Redis mode (issue 30): the version of the shared configuration this file holds; the newest wins a re-seed. */
  _config_version: Opt(Type.Integer({ minimum: 0 })),
});

export type Config = Static<typeof ConfigSchema>;
export type ApiKeyRecord = Static<typeof ApiKeyRecordSchema>;
export type Account = Static<typeof AccountSchema>;
export type Proxy = Static<typeof ProxySchema>;
export type AutoDeleteMode = (typeof AUTO_DELETE_MODES)[number];
export type KeyQuota = Static<typeof KeyQuotaSchema>;
