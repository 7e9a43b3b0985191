// Every default of the configuration in one place (D2.11, D8.4, core-upstream.md §1). Fields whose
// default is computed (global_max_inflight, account_max_queue, pow_workers, base_url) are in effective.ts.
export const DEFAULTS = {
  admin: { jwt_expire_hours: 24 },
  runtime: { account_max_inflight: 2, queue_wait_seconds: 60, token_refresh_interval_hours: 6 },
  responses: { store_ttl_seconds: 900, store_max_entries: 10_000 },
  embeddings: { dimensions: 256 },
  compat: { wide_input_strict_output: true, strip_reference_markers: true },
  auto_delete: { mode: "none" as const },
  current_input_file: { enabled: true, min_chars: 100_000 },
  chat_history: { limit: 20 },
  upstream: {
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
  },
} as const;
