// The admin API's answers (gateway.md admin API, D11), as the documents describe them: the shapes the console
// reads, open to fields added later (additional properties are allowed: a client ignores what it does not know).
// Types the console shares with the server are Static<> of these or the server's own interfaces.
import { t, type Static } from "elysia";
import { Nullable, withExample, writeFields } from "../../http/openapi-doc";

/** `{ success: true, … }` plus where the config was written: every admin write. */
export const WriteAnswer = (fields: Parameters<typeof t.Object>[0], example: Record<string, unknown>) =>
  withExample(t.Object({ success: t.Boolean(), ...fields, ...writeFields }), { success: true, ...example, config_writable: true });

export const LoginAnswer = withExample(t.Object({ success: t.Literal(true), token: t.String(), expires_in: t.Integer(), expires_at: t.Integer() }), {
  success: true,
  token: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE3ODAwMDAwMDB9.c2lnbmF0dXJl",
  expires_in: 86400,
  expires_at: 1780000000,
});
export const VerifyAnswer = withExample(t.Object({ valid: t.Literal(true), expires_at: t.Integer(), remaining_seconds: t.Integer() }), { valid: true, expires_at: 1780000000, remaining_seconds: 3600 });
export const PasswordAnswer = WriteAnswer({ message: t.String(), force_relogin: t.Boolean(), jwt_valid_after_unix: t.Integer() }, { message: "Admin password updated; sign in again.", force_relogin: true, jwt_valid_after_unix: 1780000000 });

/** The configuration as stored, secrets masked (config/mask.ts), with where it lives (D2.2). */
export const ConfigView = withExample(t.Object({ env_backed: t.Boolean(), keys: t.Optional(t.Array(t.Unknown())), accounts: t.Optional(t.Array(t.Unknown())) }), {
  env_backed: false,
  keys: [{ key: "sk-team-a", name: "team a" }],
  accounts: [{ identifier: "al***@example.com", has_password: true }],
});
export const ConfigReplaceAnswer = WriteAnswer({ message: t.String(), total_keys: t.Integer(), total_accounts: t.Integer() }, { message: "Configuration updated.", total_keys: 2, total_accounts: 1 });
export const ConfigImportAnswer = WriteAnswer({ mode: t.String(), message: t.String() }, { mode: "merge", message: "Imported configuration (merge).", imported_keys: 1, imported_accounts: 1, imported_proxies: 0 });
/** A full backup: it holds secrets and is sent with Cache-Control: no-store (D2.9). */
export const ConfigExport = withExample(t.Object({ success: t.Literal(true), json: t.String(), base64: t.String(), config: t.Optional(t.Record(t.String(), t.Unknown())) }), {
  success: true,
  config: { keys: ["sk-team-a"] },
  json: '{"keys":["sk-team-a"]}',
  base64: "eyJrZXlzIjpbInNrLXRlYW0tYSJdfQ==",
});

export const SettingsView = withExample(t.Object({ env_backed: t.Boolean(), needs_host_sync: t.Boolean() }), { env_backed: false, needs_host_sync: false, runtime: { account_max_inflight: 2 }, admin: { jwt_expire_hours: 24 } });
export const SettingsAnswer = WriteAnswer({ message: t.String(), settings: t.Record(t.String(), t.Unknown()), env_backed: t.Boolean(), needs_host_sync: t.Boolean() }, { message: "Settings updated.", settings: {}, env_backed: false, needs_host_sync: false });

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
export const KeysView = withExample(t.Object({ keys: t.Array(KeyView), day: t.String() }), {
  day: "2026-11-27",
  keys: [{ key: "sk-team-a", fingerprint: "caller:3f2a9c", name: "team a", remark: "", quota: { requests_per_minute: null, tokens_per_day: 100000 }, enabled: true, expires_at: null, allowed_models: [], state: "active", today: { requests: 12, tokens: 3400 }, last_used_at: "2026-11-27T04:12:00.000Z" }],
});

const ProxyView = t.Object({ id: t.String(), name: t.Optional(t.String()), type: t.String(), host: t.String(), port: t.Integer(), username: t.Optional(t.String()), has_password: t.Optional(t.Boolean()) });
const proxyExample = { id: "proxy-1", name: "office", type: "socks5", host: "10.0.0.2", port: 1080, username: "u", has_password: true };
export const ProxiesView = withExample(t.Object({ items: t.Array(ProxyView), total: t.Integer() }), { items: [proxyExample], total: 1 });
export const ProxyAnswer = WriteAnswer({ proxy: ProxyView }, { proxy: proxyExample });
export const ProxyDeleteAnswer = WriteAnswer({ unbound_accounts: t.Integer() }, { unbound_accounts: 1 });
export const ProxyTestAnswer = withExample(
  t.Object({ success: t.Boolean(), proxy_id: t.String(), proxy_type: t.String(), response_time: t.Number(), status_code: Nullable(t.Integer()), message: t.String() }),
  { success: true, proxy_id: "proxy-1", proxy_type: "socks5", response_time: 412, status_code: 200, message: "Connected through the proxy." },
);

export type ProxyTestAnswer = Static<typeof ProxyTestAnswer>;
