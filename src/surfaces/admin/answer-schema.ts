// The admin API's answers (gateway.md admin API, D11), as the documents describe them: the shapes the console
// reads, open to fields added later (additional properties are allowed: a client ignores what it does not know).
// Types the console shares with the server are Static<> of these or the server's own interfaces.
import { t, type Static } from "elysia";
import type { TProperties } from "@sinclair/typebox";
import { Nullable, withExample, writeFields } from "../../http/openapi-doc";

/** `{ success: true, … }` plus where the config was written: every admin write. */
export const WriteAnswer = <P extends TProperties>(fields: P, example: Record<string, unknown>) =>
  withExample(t.Object({ success: t.Boolean(), ...fields, ...writeFields }), { success: true, ...example, config_writable: true });

export type LoginAnswer = Static<typeof LoginAnswer>;
export const LoginAnswer = withExample(t.Object({ success: t.Literal(true), token: t.String(), expires_in: t.Integer(), expires_at: t.Integer() }), {
  success: true,
  token: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3ODAwMDAwMDB9.c2lnbmF0dXJl",
  expires_in: 86400,
  expires_at: 1780000000,
});
export const VerifyAnswer = withExample(t.Object({ valid: t.Literal(true), expires_at: t.Integer(), remaining_seconds: t.Integer() }), { valid: true, expires_at: 1780000000, remaining_seconds: 3600 });
export const PasswordAnswer = WriteAnswer({ message: t.String(), force_relogin: t.Boolean(), jwt_valid_after_unix: t.Integer() }, { message: "Admin password updated; sign in again.", force_relogin: true, jwt_valid_after_unix: 1780000000 });

/** The configuration as stored, secrets masked (config/mask.ts), with where it lives (D2.2). */
export type ConfigView = Static<typeof ConfigView>;
export const ConfigView = withExample(
  t.Object({
    keys: t.Array(t.String()),
    api_keys: t.Array(t.Object({ key: t.String(), name: t.String(), remark: t.String() }), { description: "The business keys with their labels; the console's playground offers them." }),
    env_backed: t.Boolean(),
    env_source_present: t.Boolean(),
    env_writeback_enabled: t.Boolean(),
    config_path: t.String({ description: "Empty: the configuration lives in the environment only." }),
    accounts: t.Array(t.Unknown(), { description: "As GET /admin/accounts lists them, without the run-time state." }),
    proxies: t.Array(t.Unknown(), { description: "As GET /admin/proxies lists them." }),
    model_aliases: t.Record(t.String(), t.String()),
  }),
  {
    keys: ["sk-team-a"],
    api_keys: [{ key: "sk-team-a", name: "team a", remark: "" }],
    env_backed: false,
    env_source_present: false,
    env_writeback_enabled: false,
    config_path: "data/config.json",
    accounts: [{ identifier: "alice@example.com", email: "alice@example.com", has_password: true }],
    proxies: [],
    model_aliases: {},
  },
);
export const ConfigReplaceAnswer = WriteAnswer({ message: t.String(), total_keys: t.Integer(), total_accounts: t.Integer() }, { message: "Configuration updated.", total_keys: 2, total_accounts: 1 });
export type ConfigImportAnswer = Static<typeof ConfigImportAnswer>;
export const ConfigImportAnswer = WriteAnswer({ mode: t.String(), message: t.String(), imported_keys: t.Integer(), imported_accounts: t.Integer(), imported_proxies: t.Integer() }, { mode: "merge", message: "Imported configuration (merge).", imported_keys: 1, imported_accounts: 1, imported_proxies: 0 });
/** A full backup: it holds secrets and is sent with Cache-Control: no-store (D2.9). */
export type ConfigExport = Static<typeof ConfigExport>;
export const ConfigExport = withExample(t.Object({ success: t.Literal(true), json: t.String(), base64: t.String(), config: t.Optional(t.Record(t.String(), t.Unknown())) }), {
  success: true,
  config: { keys: ["sk-team-a"] },
  json: '{"keys":["sk-team-a"]}',
  base64: "eyJrZXlzIjpbInNrLXRlYW0tYSJdfQ==",
});

/** GET /admin/settings (settings-routes.ts settingsObject): the effective settings, section by section, secrets as has_… flags. */
const settingsFields = {
  success: t.Literal(true),
  admin: t.Object({ has_password_hash: t.Boolean(), jwt_expire_hours: t.Number(), jwt_valid_after_unix: Nullable(t.Integer()), default_password_warning: t.Boolean() }),
  runtime: t.Object({
    account_max_inflight: t.Integer(),
    global_max_inflight: t.Integer(),
    account_max_queue: t.Integer(),
    queue_wait_seconds: t.Number(),
    token_refresh_interval_hours: t.Number(),
    computed: t.Object({ global_max_inflight: t.Boolean(), account_max_queue: t.Boolean() }, { description: "True where the limit follows the account list (D8.4)." }),
  }),
  compat: t.Object({ wide_input_strict_output: t.Boolean(), strip_reference_markers: t.Boolean() }),
  responses: t.Object({ store_ttl_seconds: t.Number(), store_max_entries: t.Integer() }),
  embeddings: t.Object({ provider: t.String({ description: "Empty: not configured (embeddings answer 501)." }), dimensions: t.Integer() }),
  auto_delete: t.Object({ mode: t.Union([t.Literal("none"), t.Literal("single"), t.Literal("all")]) }),
  current_input_file: t.Object({ enabled: t.Boolean(), min_chars: t.Integer() }),
  model_aliases: t.Record(t.String(), t.String()),
  chat_history: t.Object({ limit: t.Integer() }),
  release: t.Object({ feed_url: t.String(), has_feed_token: t.Boolean() }),
  metrics: t.Object({ public: t.Boolean(), has_token: t.Boolean() }),
  dev_capture: t.Record(t.String(), t.Unknown()),
  env_backed: t.Boolean(),
  env_source_present: t.Boolean(),
  needs_host_sync: t.Boolean(),
  ...writeFields,
};
const settingsExample = {
  success: true,
  admin: { has_password_hash: false, jwt_expire_hours: 24, jwt_valid_after_unix: null, default_password_warning: true },
  runtime: { account_max_inflight: 2, global_max_inflight: 6, account_max_queue: 6, queue_wait_seconds: 30, token_refresh_interval_hours: 6, computed: { global_max_inflight: true, account_max_queue: true } },
  compat: { wide_input_strict_output: true, strip_reference_markers: true },
  responses: { store_ttl_seconds: 3600, store_max_entries: 1000 },
  embeddings: { provider: "", dimensions: 1024 },
  auto_delete: { mode: "none" },
  current_input_file: { enabled: true, min_chars: 40000 },
  model_aliases: { "team-model": "core-v4-flash" },
  chat_history: { limit: 200 },
  release: { feed_url: "", has_feed_token: false },
  metrics: { public: false, has_token: false },
  dev_capture: { enabled: false, limit: 20 },
  env_backed: false,
  env_source_present: false,
  needs_host_sync: false,
  config_writable: true,
};
/** GET /admin/settings: the console's Settings page reads it as this type (settings-routes.ts checks what it builds against it). */
export type SettingsView = Static<typeof SettingsView>;
export const SettingsView = withExample(t.Object(settingsFields), settingsExample);
/** PUT /admin/settings: the settings after the change, as GET answers them. */
export type SettingsAnswer = Static<typeof SettingsAnswer>;
export const SettingsAnswer = WriteAnswer({ message: t.String(), settings: t.Object(settingsFields), env_backed: t.Boolean(), needs_host_sync: t.Boolean() }, { message: "Settings updated.", settings: settingsExample, env_backed: false, needs_host_sync: false });

export const KeysAnswer = WriteAnswer({ total_keys: t.Integer() }, { total_keys: 2 });
const KeyView = t.Object({
  key: t.String(),
  fingerprint: t.String(),
  name: t.String(),
  remark: t.String(),
  quota: t.Object({ requests_per_minute: Nullable(t.Integer()), tokens_per_day: Nullable(t.Integer()) }),
  enabled: t.Boolean(),
  expires_at: Nullable(t.Integer({ description: "Unix seconds." })),
  allowed_models: t.Array(t.String(), { description: "Empty: every model." }),
  state: t.Union([t.Literal("active"), t.Literal("disabled"), t.Literal("expired")]),
  today: t.Object({ requests: t.Integer(), tokens: t.Integer() }),
  last_used_at: Nullable(t.String()),
});
/** One row of GET /admin/keys: the console's Keys page reads it as this type. */
export type KeyView = Static<typeof KeyView>;
/** GET /admin/keys. */
export type KeysView = Static<typeof KeysView>;
export const KeysView = withExample(t.Object({ keys: t.Array(KeyView), day: t.String() }), {
  day: "2026-11-27",
  keys: [{ key: "sk-team-a", fingerprint: "caller:3f2a9c", name: "team a", remark: "", quota: { requests_per_minute: null, tokens_per_day: 100000 }, enabled: true, expires_at: null, allowed_models: [], state: "active", today: { requests: 12, tokens: 3400 }, last_used_at: "2026-11-27T04:12:00.000Z" }],
});

/** config/mask.ts maskProxy: the password only as has_password; name defaults to host:port. */
const ProxyView = t.Object({
  id: t.String(),
  name: t.String(),
  type: t.String(),
  host: t.String(),
  port: t.Integer(),
  username: t.String(),
  has_password: t.Boolean(),
  account_count: t.Integer({ description: "Accounts bound to the proxy." }),
});
const proxyExample = { id: "proxy-1", name: "office", type: "socks5", host: "10.0.0.2", port: 1080, username: "u", has_password: true, account_count: 1 };
/** GET /admin/proxies: the console's Proxies page and the account form's proxy picker read it as this type. */
export type ProxiesView = Static<typeof ProxiesView>;
export const ProxiesView = withExample(t.Object({ items: t.Array(ProxyView), total: t.Integer() }), { items: [proxyExample], total: 1 });
export const ProxyAnswer = WriteAnswer({ proxy: ProxyView }, { proxy: proxyExample });
export const ProxyDeleteAnswer = WriteAnswer({ unbound_accounts: t.Integer() }, { unbound_accounts: 1 });
export const ProxyTestAnswer = withExample(
  t.Object({ success: t.Boolean(), proxy_id: t.String(), proxy_type: t.String(), response_time: t.Number(), status_code: Nullable(t.Integer()), message: t.String() }),
  { success: true, proxy_id: "proxy-1", proxy_type: "socks5", response_time: 412, status_code: 200, message: "Connected through the proxy." },
);

export type ProxyTestAnswer = Static<typeof ProxyTestAnswer>;
