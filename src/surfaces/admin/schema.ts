// Admin request bodies and path parameters (gateway.md admin API, D11). Field shapes come from the config
// schema (config/schema.ts) wherever a body carries config fields, so the two cannot drift apart. Unknown
// fields are ignored (D3.5): additionalProperties stays allowed and handlers read only what they know.
// Bodies whose meaning is checked as a whole by the config validation after the change (settings, config
// replace, import) are described as objects here and validated there, with the config's own messages.
import { t, type Static } from "elysia";
import { Type } from "@sinclair/typebox";
import { AccountSchema, AdminSchema, ApiKeyRecordSchema, ChatHistorySchema, ProxySchema } from "../../config/schema";

const open = { additionalProperties: true } as const;

/** Any JSON object: for bodies validated as a whole after the change. */
export const AdminBody = t.Record(t.String(), t.Unknown());
export type AdminBody = Static<typeof AdminBody>;

export const LoginBody = t.Object(
  {
    // Read loosely as before: a non-string admin_key falls back to password, expire_hours may be a numeric string.
    admin_key: t.Optional(t.Unknown()),
    password: t.Optional(t.Unknown()),
    expire_hours: t.Optional(t.Unknown()),
  },
  open,
);

export const PasswordBody = t.Object({ new_password: t.Optional(t.Unknown()), password: t.Optional(t.Unknown()) }, open);

export const KeyCreateBody = Type.Object({ ...Type.Pick(ApiKeyRecordSchema, ["key", "name", "remark"]).properties }, open);
export const KeyUpdateBody = Type.Partial(Type.Object({ ...Type.Pick(ApiKeyRecordSchema, ["name", "remark"]).properties }, open));
export const KeyParams = t.Object({ key: t.String() });

const section = t.Optional(t.Object({}, open));
/** PUT /admin/settings: each section an object, checked field by field by the config validation (D11.3). */
export const SettingsBody = t.Object(
  {
    admin: t.Optional(Type.Partial(Type.Pick(AdminSchema, ["jwt_expire_hours"]), open)),
    runtime: section,
    compat: section,
    responses: section,
    embeddings: section,
    auto_delete: section,
    current_input_file: section,
    release: section,
    model_aliases: section,
  },
  open,
);

export const IdParams = t.Object({ id: t.String() });

/** A string field an admin body may leave out or send as null. */
const OptStr = t.Optional(t.Union([t.String(), t.Null()]));
const OptBool = t.Optional(t.Union([t.Boolean(), t.Null()]));

/** POST /admin/accounts: the config's account fields (D8.1); identifier is derived, never taken. */
export const AccountCreateBody = Type.Object({ ...AccountSchema.properties }, open);
/**
 * PUT /admin/accounts/{id}: labels, secrets and pacing; an empty secret keeps the stored one (D11.5); a pacing field
 * that is absent stays, null clears it (issue 32).
 */
export const AccountUpdateBody = Type.Object({ ...Type.Pick(AccountSchema, ["name", "remark", "password", "token", "min_interval_ms", "daily_completions"]).properties }, open);
/** PUT /admin/accounts/{id}/proxy: "" or null unbinds. */
export const AccountProxyBody = Type.Object({ ...Type.Pick(AccountSchema, ["proxy_id"]).properties }, open);

/** The account test routes (D11.6). */
export const AccountTestBody = t.Object({ identifier: OptStr, model: OptStr, message: OptStr }, open);
export const SelfTestBody = t.Object({ model: OptStr, message: OptStr, api_key: t.Optional(t.Unknown()) }, open);

/** POST /admin/host/sync (D14). */
export const HostSyncBody = t.Object({ host_token: OptStr, project_id: OptStr, team_id: OptStr, auto_validate: OptBool, save_credentials: OptBool }, open);

/** PUT /admin/chat-history/settings: the config's limit (its integer branch: here it is required, not nullable; D12.6). */
export const HistorySettingsBody = t.Object({ limit: ChatHistorySchema.properties.limit.anyOf[0] }, open);

/** The dev raw-sample routes (D13). sample_id's own rules (characters, length) are checked by the sample store. */
const rawSampleFields = { sample_id: OptStr };
export const RawSampleSaveBody = t.Object({ ...rawSampleFields, chain_key: OptStr, capture_id: OptStr, query: OptStr }, open);
export const RawSampleCaptureBody = t.Object({ ...rawSampleFields, message: OptStr, model: OptStr, stream: OptBool, messages: t.Optional(t.Unknown()), api_key: t.Optional(t.Unknown()) }, open);

/**
 * Proxy bodies (D11.7). Labels and credentials are the config's fields; type, host and port are taken
 * loosely first (type in any case, host with surrounding spaces, port as a numeric string, as the console
 * sends them), normalised by the route, and the stored proxy is then checked by the config's ProxySchema.
 */
const proxyFields = {
  ...Type.Pick(ProxySchema, ["name", "username", "password"]).properties,
  type: OptStr,
  host: OptStr,
  // The range is checked by the route once a numeric string is a number: one rule, one message.
  port: t.Optional(t.Union([t.Integer(), t.String({ pattern: "^\\s*\\d+\\s*$" }), t.Null()])),
};
export const ProxyBody = Type.Partial(Type.Object({ ...proxyFields, id: OptStr }, open));
export const ProxyTestBody = Type.Partial(Type.Object({ ...proxyFields, proxy_id: OptStr }, open));

/** POST /admin/config (D11.2): each list or map present replaces; items are checked by the config rules. */
export const ConfigReplaceBody = t.Object(
  {
    api_keys: t.Optional(t.Array(t.Unknown())),
    keys: t.Optional(t.Array(t.Unknown())),
    accounts: t.Optional(t.Array(t.Unknown())),
    model_aliases: t.Optional(t.Object({}, open)),
  },
  open,
);

/** POST /admin/import (D11.1): invalid entries are skipped, not refused, so only the lists are shapes. */
export const BulkImportBody = t.Object({ keys: t.Optional(t.Union([t.Array(t.Unknown()), t.Null()])), accounts: t.Optional(t.Union([t.Array(t.Unknown()), t.Null()])) }, open);
