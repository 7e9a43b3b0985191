// Every default of the configuration in one place (D2.11, D8.4, core-upstream.md §1). Fields whose
// default is computed (global_max_inflight, account_max_queue, pow_workers, base_url) are in effective.ts.
import { WIRE_DEFAULTS } from "../core/wire";

export const DEFAULTS = {
  admin: { jwt_expire_hours: 24 },
  runtime: { account_max_inflight: 2, queue_wait_seconds: 60, token_refresh_interval_hours: 6 },
  responses: { store_ttl_seconds: 900, store_max_entries: 10_000 },
  embeddings: { dimensions: 256 },
  compat: { wide_input_strict_output: true, strip_reference_markers: true },
  auto_delete: { mode: "none" as const },
  current_input_file: { enabled: true, min_chars: 100_000 },
  chat_history: { limit: 20 },
  // The wire identity and timeouts live with the core client (core-upstream §1: one module).
  upstream: WIRE_DEFAULTS,
} as const;
