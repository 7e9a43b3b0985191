// The admin API's operational answers (accounts, health, history, request log, usage, host, version…), as the
// documents describe them; see answer-schema.ts for the configuration ones. Open objects: a field added later
// breaks no client.
import { t, type Static } from "elysia";
import { Nullable, withExample } from "../../http/openapi-doc";
import { WriteAnswer } from "./answer-schema";

const Page = <T extends Parameters<typeof t.Array>[0]>(item: T) => ({ items: t.Array(item) });

const Lit = <T extends string>(...values: T[]) => t.Union(values.map((v) => t.Literal(v)));

/** One row of GET /admin/accounts (accounts-routes.ts accountRecord): the stored fields, masked, plus run-time state. */
const AccountRecord = t.Object({
  identifier: t.String(),
  email: t.String(),
  mobile: t.String(),
  name: t.String(),
  remark: t.String(),
  has_password: t.Boolean(),
  has_token: t.Boolean(),
  token_preview: t.String(),
  proxy_id: t.String({ description: "Empty: no proxy." }),
  test_status: Lit("untested", "ok", "failed"),
  tested_at: Nullable(t.String()),
  test_message: t.String(),
  in_flight: t.Integer(),
  cooldown_until: Nullable(t.String()),
  health_state: Lit("healthy", "cooling_down", "probing", "disabled_pending_operator"),
  health_class: Nullable(t.String()),
});
export type AccountRecord = Static<typeof AccountRecord>;
const accountExample = {
  identifier: "alice@example.com",
  email: "alice@example.com",
  mobile: "",
  name: "alice",
  remark: "",
  has_password: true,
  has_token: false,
  token_preview: "",
  proxy_id: "",
  test_status: "ok",
  tested_at: "2026-11-27T04:00:00.000Z",
  test_message: "",
  in_flight: 0,
  cooldown_until: null,
  health_state: "healthy",
  health_class: null,
};
/** GET /admin/accounts: the console's Accounts page reads it as this type. */
export type AccountsPage = Static<typeof AccountsPage>;
export const AccountsPage = withExample(
  t.Object({ ...Page(AccountRecord), total: t.Integer(), page: t.Integer(), page_size: t.Integer(), total_pages: t.Integer() }),
  { items: [accountExample], total: 1, page: 1, page_size: 10, total_pages: 1 },
);
export type AccountAnswer = Static<typeof AccountAnswer>;
export const AccountAnswer = WriteAnswer({ identifier: t.String(), total_accounts: t.Integer() }, { identifier: "alice@example.com", total_accounts: 3 });
export const AccountDeleteAnswer = WriteAnswer({ total_accounts: t.Integer() }, { total_accounts: 2 });
export const AccountProxyAnswer = WriteAnswer({ identifier: t.String(), proxy_id: Nullable(t.String()) }, { identifier: "alice@example.com", proxy_id: "proxy-1" });
export type BulkImportAnswer = Static<typeof BulkImportAnswer>;
export const BulkImportAnswer = WriteAnswer({ imported_keys: t.Integer(), skipped_keys: t.Integer(), imported_accounts: t.Integer(), skipped_accounts: t.Integer() }, { imported_keys: 1, skipped_keys: 0, imported_accounts: 2, skipped_accounts: 1 });

const testExample = { success: true, response_time: 1840, message: "ok", model: "core-v4-flash", session_count: 3 };
export const AccountTestAnswer = withExample(t.Object({ success: t.Boolean(), response_time: t.Number(), message: t.String(), model: t.String(), session_count: t.Integer() }), { identifier: "alice@example.com", ...testExample });
export const AccountTestAllAnswer = withExample(t.Object({ total: t.Integer(), success: t.Integer(), failed: t.Integer(), results: t.Array(t.Object({ success: t.Boolean(), message: t.String() })) }), {
  total: 1,
  success: 1,
  failed: 0,
  results: [{ identifier: "alice@example.com", ...testExample }],
});
export type DeleteSessionsAnswer = Static<typeof DeleteSessionsAnswer>;
export const DeleteSessionsAnswer = withExample(t.Object({ success: t.Boolean(), message: t.String(), deleted: t.Integer() }), { success: true, message: "Deleted 3 sessions.", deleted: 3 });
export const SelfTestAnswer = withExample(t.Object({ success: t.Boolean(), status_code: t.Integer(), response: t.Unknown() }), {
  success: true,
  status_code: 200,
  response: { id: "chatcmpl-1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Hello." }, finish_reason: "stop" }] },
});

/** One account's health record (accounts/health.ts view; D8.15). */
const healthExample = { identifier: "alice@example.com", state: "healthy", class: null, since: null, until: null, cooldowns_in_a_row: 0, consecutive_failures: {}, last_success_at: "2026-11-27T04:00:00.000Z", last_failure_at: null, events: [] };
export const HealthView = withExample(t.Object({ identifier: t.String(), state: t.String(), cooldowns_in_a_row: t.Integer(), consecutive_failures: t.Record(t.String(), t.Integer()), events: t.Array(t.Unknown()) }), healthExample);
export const HealthList = withExample(t.Object({ items: t.Array(t.Object({ identifier: t.String(), state: t.String() })) }), { items: [healthExample] });
export const HealthWriteAnswer = withExample(t.Object({ success: t.Literal(true), identifier: t.String(), state: t.String() }), { success: true, ...healthExample });

export const DoctorReport = withExample(t.Object({ ok: t.Boolean(), checks: t.Array(t.Object({ check: t.String(), status: t.String(), result: t.String(), action: t.String() })) }), {
  ok: true,
  checks: [{ check: "core reachable", status: "ok", result: "HTTP 200 in 120 ms", action: "" }],
});

export const QueueStatus = withExample(
  t.Object({ available: t.Integer(), in_use: t.Integer(), total: t.Integer(), waiting: t.Integer(), max_queue_size: t.Integer(), max_inflight_per_account: t.Integer(), global_max_inflight: t.Integer() }),
  { available: 2, in_use: 1, total: 3, available_accounts: [], in_use_accounts: [], max_inflight_per_account: 2, global_max_inflight: 6, recommended_concurrency: 6, waiting: 0, max_queue_size: 64, queue_wait_seconds: 30, cooldown_accounts: [] },
);
/** GET /admin/console/status: the console's overview reads it as this type. */
export type ConsoleStatus = Static<typeof ConsoleStatus>;
export const ConsoleStatus = withExample(
  t.Object({ success: t.Literal(true), version: t.String(), demo: t.Boolean(), started_at: t.String(), uptime_seconds: t.Integer(), accounts_total: t.Integer(), accounts_in_cooldown: t.Integer(), accounts_failed: t.Integer(), recent_errors: t.Array(
      t.Object({ id: t.String(), created_at: t.String(), surface: t.String(), model: t.String(), status_code: Nullable(t.Integer()), error_code: Nullable(t.String()), account_id: t.String(), message: t.String() }),
    ) }),
  { success: true, version: "0.1.0", demo: false, started_at: "2026-11-27T00:00:00.000Z", uptime_seconds: 15000, accounts_total: 3, accounts_in_cooldown: 0, accounts_failed: 0, recent_errors: [] },
);

/** One conversation in the list (store/chat-history.ts HistorySummary; D12.6). */
const HistorySummary = t.Object({
  id: t.String(),
  revision: t.Integer(),
  status: Lit("streaming", "success", "error", "stopped"),
  surface: Lit("chat", "responses", "messages", "generate"),
  model: t.String(),
  resolved_model: t.String(),
  stream: t.Boolean(),
  caller_id: t.String(),
  source: t.String(),
  account_id: t.String(),
  status_code: Nullable(t.Integer()),
  finish_reason: Nullable(t.String()),
  error_code: Nullable(t.String()),
  preview: t.String(),
  user_input_preview: t.String(),
  created_at: t.String(),
  updated_at: t.String(),
  completed_at: Nullable(t.String()),
  elapsed_ms: Nullable(t.Number()),
  first_token_ms: Nullable(t.Number()),
  usage: t.Object({ input_tokens: t.Integer(), output_tokens: t.Integer(), reasoning_tokens: t.Integer() }),
});
const historyExample = {
  id: "chat_5d1c0e9a2b7f4c3d8e6a1b0f",
  revision: 3,
  status: "success",
  surface: "chat",
  model: "gpt-4o",
  resolved_model: "core-v4-flash",
  stream: true,
  caller_id: "caller:3f2a9c",
  source: "",
  account_id: "alice@example.com",
  status_code: 200,
  finish_reason: "stop",
  error_code: null,
  preview: "Hello.",
  user_input_preview: "Say hello.",
  created_at: "2026-11-27T04:00:00.000Z",
  updated_at: "2026-11-27T04:00:02.000Z",
  completed_at: "2026-11-27T04:00:02.000Z",
  elapsed_ms: 2100,
  first_token_ms: 640,
  usage: { input_tokens: 12, output_tokens: 3, reasoning_tokens: 0 },
};
/** GET /admin/chat-history: the console's Conversations page reads it as this type. */
export type HistoryList = Static<typeof HistoryList>;
export const HistoryList = withExample(
  t.Object({ version: t.Integer(), limit: t.Integer(), revision: t.Integer(), total: t.Integer(), persisted: t.Boolean(), path: t.String(), items: t.Array(HistorySummary) }),
  { version: 1, limit: 200, revision: 3, total: 1, persisted: true, path: "data/chat-history.json", items: [historyExample] },
);
/** GET /admin/chat-history/{id}: the conversation under `item`, with what was sent and what came back. */
export type HistoryEntry = Static<typeof HistoryEntry>;
export const HistoryEntry = withExample(
  t.Object({
    item: t.Composite([
      HistorySummary,
      t.Object({
        request_messages: t.Array(t.Object({ role: t.String(), content: t.Unknown() }), { description: "The messages as the client sent them." }),
        final_prompt: t.String(),
        current_input_file: Nullable(t.String()),
        reasoning: t.String(),
        content: t.String(),
        tool_calls: t.Array(t.Object({ id: t.String(), name: t.String(), arguments: t.String() })),
        error: Nullable(t.Object({ code: t.String(), message: t.String() })),
        truncated: t.Boolean(),
      }),
    ]),
  }),
  { item: { ...historyExample, request_messages: [{ role: "user", content: "Say hello." }], final_prompt: "Say hello.", current_input_file: null, reasoning: "", content: "Hello.", tool_calls: [], error: null, truncated: false } },
);
export const Done = withExample(t.Object({ success: t.Literal(true) }), { success: true });
export type HistorySettingsAnswer = Static<typeof HistorySettingsAnswer>;
export const HistorySettingsAnswer = WriteAnswer({ limit: t.Integer(), total: t.Integer() }, { limit: 200, total: 12 });

export const CaptureList = withExample(t.Object({ count: t.Integer(), items: t.Array(t.Unknown()) }), { enabled: true, limit: 20, count: 0, items: [] });
export const CaptureCleared = withExample(t.Object({ success: t.Literal(true), detail: t.String() }), { success: true, detail: "Capture logs were cleared." });
export const CaptureQuery = withExample(t.Object({ query: t.String(), limit: t.Integer(), count: t.Integer(), items: t.Array(t.Object({ chain_key: t.String(), capture_ids: t.Array(t.String()), round_count: t.Integer() })) }), {
  query: "req_a",
  limit: 20,
  count: 1,
  items: [{ chain_key: "req_a", capture_ids: ["cap_1"], round_count: 1, initial_label: "completion", request_preview: "{", response_preview: "data:" }],
});
export const SampleSaved = withExample(t.Object({ success: t.Literal(true), sample_id: t.String() }), { success: true, sample_id: "greeting", path: "samples/greeting", chain_key: "req_a", capture_ids: ["cap_1"], round_count: 1 });

export const HostConfig = withExample(t.Object({ has_token: t.Boolean(), project_id: t.String(), team_id: Nullable(t.String()), api_base_configured: t.Boolean() }), { has_token: false, project_id: "", team_id: null, api_base_configured: false });
export const HostStatus = withExample(t.Object({ synced: t.Boolean(), has_synced_before: t.Boolean(), env_backed: t.Boolean(), config_hash: t.String() }), { synced: false, last_sync_time: null, has_synced_before: false, env_backed: true, config_hash: "9f2c…" });
export const HostSyncAnswer = withExample(t.Object({ success: t.Literal(true), message: t.String(), config_writable: t.Boolean() }), { success: true, message: "Pushed to the host.", config_writable: true });

export const VersionAnswer = withExample(t.Object({ success: t.Literal(true), current_version: t.String(), latest_version: Nullable(t.String()), has_update: t.Boolean(), release_url: Nullable(t.String()) }), {
  success: true,
  current_version: "0.1.0",
  current_tag: "v0.1.0",
  source: "build",
  checked_at: "2026-11-27T04:00:00.000Z",
  latest_tag: "v0.2.0",
  latest_version: "0.2.0",
  release_url: "https://releases.example/v0.2.0",
  published_at: "2026-11-20T00:00:00.000Z",
  has_update: true,
  cached: false,
  feed_configured: true,
});
export const ReleasesAnswer = withExample(t.Object({ success: t.Literal(true), checked_at: t.String(), items: t.Array(t.Unknown()) }), { success: true, checked_at: "2026-11-27T04:00:00.000Z", items: [] });

const usageRow = { key: "caller:3f2a9c", key_name: "team a", requests: 12, prompt_tokens: 3000, completion_tokens: 400, total_tokens: 3400 };
export const UsageAnswer = withExample(t.Object({ from: t.String(), to: t.String(), group_by: t.Array(t.String()), rows: t.Array(t.Object({ requests: t.Integer() })), totals: t.Object({ requests: t.Integer(), total_tokens: t.Integer() }) }), {
  from: "2026-11-01",
  to: "2026-11-27",
  group_by: ["key"],
  rows: [usageRow],
  totals: { requests: 12, prompt_tokens: 3000, completion_tokens: 400, total_tokens: 3400 },
});
export const SeriesAnswer = withExample(t.Object({ from: t.String(), to: t.String(), bucket: t.String(), group_by: t.String(), rows: t.Array(t.Object({ bucket: t.String(), requests: t.Integer() })) }), {
  from: "2026-11-26T04:00:00.000Z",
  to: "2026-11-27T04:00:00.000Z",
  bucket: "hour",
  group_by: "key",
  rows: [{ bucket: "2026-11-27T03:00:00.000Z", group: "team a", requests: 4, errors: 0, input_tokens: 900, output_tokens: 120 }],
});

const requestExample = { seq: 42, request_id: "req_5d1c", ts: 1780000000000, surface: "chat", route: "/v1/chat/completions", status: 200, model: "gpt-4o", resolved_model: "core-v4-flash" };
export const RequestPage = withExample(t.Object({ items: t.Array(t.Object({ request_id: t.String(), status: t.Integer() })), next_cursor: Nullable(t.String()) }), { items: [requestExample], next_cursor: null, counters: { written: 42, dropped: 0 } });
export const RequestDetail = withExample(t.Object({ request_id: t.String(), others: t.Array(t.Unknown()), links: t.Object({ conversation: Nullable(t.String()), capture: Nullable(t.String()) }) }), { ...requestExample, others: [], links: { conversation: null, capture: null } });
export const AuditPage = withExample(t.Object({ items: t.Array(t.Unknown()), next_cursor: Nullable(t.String()) }), {
  items: [{ seq: 7, ts: 1780000000000, actor: "admin-key", route: "PUT /admin/keys/{key}", ok: true, status: 200 }],
  next_cursor: null,
});

const summaryExample = { window_seconds: 3600, requests: 120, requests_per_minute: 2, errors: 1, error_rate: 0.008, status: { "2xx": 118, "4xx": 2, "5xx": 0, other: 0 }, ttft_ms: { p50: 420, p95: 900 }, queue_ms: { p50: 0, p95: 12 }, input_tokens: 40000, output_tokens: 9000 };
const Percentiles = t.Object({ p50: Nullable(t.Integer()), p95: Nullable(t.Integer()) }, { description: "Milliseconds; null without a measured request." });
/** One window of the request log (metering/request-stats.ts TrafficSummary); null while the request log is off. */
const TrafficSummary = Nullable(
  t.Object({
    window_seconds: t.Integer(),
    requests: t.Integer(),
    requests_per_minute: t.Number(),
    errors: t.Integer(),
    error_rate: t.Number(),
    status: t.Object({ "2xx": t.Integer(), "4xx": t.Integer(), "5xx": t.Integer(), other: t.Integer() }),
    ttft_ms: Percentiles,
    queue_ms: Percentiles,
    input_tokens: t.Integer(),
    output_tokens: t.Integer(),
  }),
);
const AccountGaugeState = Lit("available", "in_use", "cooling_down", "login_failed");
/** GET /admin/traffic: the console's overview reads it as this type. */
export type TrafficAnswer = Static<typeof TrafficAnswer>;
export const TrafficAnswer = withExample(
  t.Object({
    enabled: t.Boolean(),
    last_hour: TrafficSummary,
    last_day: TrafficSummary,
    today: TrafficSummary,
    accounts: t.Array(t.Object({ label: t.String(), in_flight: t.Integer(), state: AccountGaugeState })),
    pool: t.Object({ available: t.Integer(), in_use: t.Integer(), cooling_down: t.Integer(), login_failed: t.Integer(), total: t.Integer(), waiting: t.Integer() }),
  }),
  {
    enabled: true,
    last_hour: summaryExample,
    last_day: summaryExample,
    today: summaryExample,
    accounts: [{ label: "al***@example.com", in_flight: 0, state: "available" }],
    pool: { available: 1, in_use: 0, cooling_down: 0, login_failed: 0, total: 1, waiting: 0 },
  },
);

/** GET /admin/models: the console's Models page reads it as this type. */
export type ModelsView = Static<typeof ModelsView>;
export const ModelsView = withExample(
  t.Object({
    native: t.Array(t.Object({ id: t.String(), model_type: t.String(), thinking_enabled: t.Optional(t.Boolean()), search_enabled: t.Optional(t.Boolean()) })),
    builtin_aliases: t.Array(t.Object({ family: t.String(), target: t.String(), names: t.Array(t.String()) })),
    configured_aliases: t.Array(t.Object({ name: t.String(), target: t.String() })),
    heuristic: t.Array(t.Object({ when: t.String(), target: t.String() })),
    retired_patterns: t.Array(t.String()),
    nothinking_suffix: t.String(),
    resolve: t.Optional(t.Object({ name: Nullable(t.String()), ok: t.Boolean(), id: t.Optional(t.String()), code: t.Optional(t.String()), message: t.Optional(t.String()) })),
  }),
  {
    native: [{ id: "core-v4-flash", model_type: "default", thinking_enabled: true, search_enabled: false }],
    builtin_aliases: [{ family: "gpt", target: "core-v4-flash", names: ["gpt-4o"] }],
    configured_aliases: [{ name: "team-model", target: "core-v4-flash" }],
    heuristic: [{ when: "any other name of a known family", target: "core-v4-flash" }],
    retired_patterns: ["^text-davinci"],
    nothinking_suffix: "-nothinking",
    resolve: { name: "gpt-4o", ok: true, id: "core-v4-flash" },
  },
);
