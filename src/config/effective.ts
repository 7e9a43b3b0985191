// Effective values: the config with defaults applied. The stored config keeps only what the operator
// set, so changing a default in a new release reaches every install that never chose a value.
import { availableCpus } from "../util/host";
import type { AutoDeleteMode, Config } from "./schema";
import { DEFAULTS } from "./defaults";
import { LIMIT_MAX } from "./schema";

type Env = Record<string, string | undefined>;

export interface EffectiveRuntime {
  account_max_inflight: number;
  global_max_inflight: number;
  account_max_queue: number;
  queue_wait_seconds: number;
  token_refresh_interval_hours: number;
  /** True where the value is derived from accounts × account_max_inflight (D8.4). */
  computed: { global_max_inflight: boolean; account_max_queue: boolean };
}

/** D8.4: null or absent limits follow the account list, so adding an account raises them. */
export function effectiveRuntime(config: Config): EffectiveRuntime {
  const r = config.runtime ?? {};
  const perAccount = r.account_max_inflight ?? DEFAULTS.runtime.account_max_inflight;
  const computedLimit = Math.min((config.accounts?.length ?? 0) * perAccount, LIMIT_MAX);
  const globalSet = typeof r.global_max_inflight === "number";
  const queueSet = typeof r.account_max_queue === "number";
  return {
    account_max_inflight: perAccount,
    global_max_inflight: globalSet ? r.global_max_inflight! : computedLimit,
    account_max_queue: queueSet ? r.account_max_queue! : computedLimit,
    queue_wait_seconds: r.queue_wait_seconds ?? DEFAULTS.runtime.queue_wait_seconds,
    token_refresh_interval_hours: r.token_refresh_interval_hours ?? DEFAULTS.runtime.token_refresh_interval_hours,
    computed: { global_max_inflight: !globalSet, account_max_queue: !queueSet },
  };
}

export function effectiveAdmin(config: Config) {
  const a = config.admin ?? {};
  return {
    password_hash: a.password_hash || null,
    jwt_expire_hours: a.jwt_expire_hours ?? DEFAULTS.admin.jwt_expire_hours,
    jwt_valid_after_unix: a.jwt_valid_after_unix ?? null,
  };
}

type Wide<T> = T extends boolean ? boolean : T extends number ? number : T;

/**
 * A section whose every field falls back to its own default, one by one (`??`: a set `false` or `0` stays), in
 * the defaults' key order (the views answer these objects as they are).
 */
function fieldDefaults<D extends Record<string, boolean | number>>(
  set: NoInfer<{ [K in keyof D]?: Wide<D[K]> | null }> | null | undefined,
  defaults: D,
): { -readonly [K in keyof D]: Wide<D[K]> } {
  const out = {} as { -readonly [K in keyof D]: Wide<D[K]> };
  for (const k in defaults) out[k] = (set?.[k] ?? defaults[k]) as Wide<D[typeof k]>;
  return out;
}

export function effectiveResponses(config: Config) {
  return fieldDefaults(config.responses, DEFAULTS.responses);
}

export function effectiveEmbeddings(config: Config) {
  const e = config.embeddings ?? {};
  return {
    /** null = not configured (→ 501 embeddings_not_configured, D10.3). */
    provider: e.provider ? e.provider : null,
    dimensions: e.dimensions ?? DEFAULTS.embeddings.dimensions,
  };
}

export function effectiveCompat(config: Config) {
  return fieldDefaults(config.compat, DEFAULTS.compat);
}

/** An explicit `mode` wins; otherwise legacy `sessions: true` means `all` (D2.11). */
export function effectiveAutoDelete(config: Config): { mode: AutoDeleteMode } {
  const a = config.auto_delete ?? {};
  if (a.mode) return { mode: a.mode };
  return { mode: a.sessions === true ? "all" : DEFAULTS.auto_delete.mode };
}

export function effectiveCurrentInputFile(config: Config) {
  return fieldDefaults(config.current_input_file, DEFAULTS.current_input_file);
}

export function effectiveChatHistory(config: Config) {
  return { limit: config.chat_history?.limit ?? DEFAULTS.chat_history.limit };
}

/** D15.2: the config's feed wins, then SVC_RELEASE_FEED_URL / SVC_RELEASE_FEED_TOKEN. */
export function effectiveRelease(config: Config, env: Env = {}) {
  const r = config.release ?? {};
  return {
    feed_url: r.feed_url || env.SVC_RELEASE_FEED_URL || null,
    feed_token: r.feed_token || env.SVC_RELEASE_FEED_TOKEN || null,
  };
}

/** core-upstream.md §1: at least 1, at most 4, one CPU left for the event loop. */
export function defaultPowWorkers(cpus = availableCpus()): number {
  return Math.max(1, Math.min(4, cpus - 1));
}

export type EffectiveUpstream = {
  -readonly [K in keyof typeof DEFAULTS.upstream]: (typeof DEFAULTS.upstream)[K] extends number ? number : string;
} & {
  /** null = no origin configured: serve runs in demo mode (core-upstream.md §1). */
  base_url: string | null;
  pow_workers: number;
};

/** base_url: SVC_CORE_BASE_URL > upstream.base_url > null. */
export function effectiveUpstream(config: Config, env: Env = {}): EffectiveUpstream {
  const u = config.upstream ?? {};
  const d = DEFAULTS.upstream;
  return {
    base_url: env.SVC_CORE_BASE_URL?.trim() || u.base_url || null,
    pow_algorithm: u.pow_algorithm ?? d.pow_algorithm,
    pow_header: u.pow_header ?? d.pow_header,
    user_agent: u.user_agent ?? d.user_agent,
    client_version: u.client_version ?? d.client_version,
    client_platform: u.client_platform ?? d.client_platform,
    client_locale: u.client_locale ?? d.client_locale,
    device_id: u.device_id ?? d.device_id,
    request_timeout_ms: u.request_timeout_ms ?? d.request_timeout_ms,
    connect_timeout_ms: u.connect_timeout_ms ?? d.connect_timeout_ms,
    stream_idle_timeout_ms: u.stream_idle_timeout_ms ?? d.stream_idle_timeout_ms,
    max_continue_rounds: u.max_continue_rounds ?? d.max_continue_rounds,
    pow_workers: u.pow_workers ?? defaultPowWorkers(),
    file_poll_interval_ms: u.file_poll_interval_ms ?? d.file_poll_interval_ms,
    file_poll_max: u.file_poll_max ?? d.file_poll_max,
    file_poll_timeout_ms: u.file_poll_timeout_ms ?? d.file_poll_timeout_ms,
    delete_timeout_ms: u.delete_timeout_ms ?? d.delete_timeout_ms,
    stream_client: u.stream_client ?? d.stream_client,
    call_client: u.call_client ?? d.call_client,
  };
}
