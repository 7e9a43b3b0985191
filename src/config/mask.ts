// Admin views of config records without secrets (D2.8, D11.3, D11.5, D11.7). The export endpoints are
// the only place secrets leave the process (D2.9); everything else goes through these.
import type { Account, Config, Proxy } from "./schema";
import { accountIdentifier } from "./identity";
import {
  effectiveAdmin,
  effectiveAutoDelete,
  effectiveChatHistory,
  effectiveCompat,
  effectiveCurrentInputFile,
  effectiveEmbeddings,
  effectiveResponses,
  effectiveRuntime,
} from "./effective";

/** D2.8: first 4 + `****` + last 4 characters when the token has at least 12, else `****`. */
export function tokenPreview(token: string | null | undefined): string {
  if (!token) return "";
  return token.length >= 12 ? `${token.slice(0, 4)}****${token.slice(-4)}` : "****";
}

export interface MaskedAccount {
  identifier: string;
  email: string;
  mobile: string;
  name: string;
  remark: string;
  has_password: boolean;
  has_token: boolean;
  token_preview: string;
  proxy_id: string;
}

/** The stored part of an account record (D11.5); runtime fields (test_status, in_flight…) are added by the caller. */
export function maskAccount(acc: Account): MaskedAccount {
  return {
    identifier: accountIdentifier(acc),
    email: acc.email ?? "",
    mobile: acc.mobile ?? "",
    name: acc.name ?? "",
    remark: acc.remark ?? "",
    has_password: Boolean(acc.password),
    has_token: Boolean(acc.token),
    token_preview: tokenPreview(acc.token),
    proxy_id: acc.proxy_id ?? "",
  };
}

export interface MaskedProxy {
  id: string;
  name: string;
  type: string;
  host: string;
  port: number;
  username: string;
  has_password: boolean;
  account_count: number;
}

/** D11.7 output; `account_count` counts accounts bound to the proxy when the list is given. */
export function maskProxy(proxy: Proxy, accounts: readonly Account[] = []): MaskedProxy {
  return {
    id: proxy.id,
    name: proxy.name || `${proxy.host}:${proxy.port}`,
    type: proxy.type,
    host: proxy.host,
    port: proxy.port,
    username: proxy.username ?? "",
    has_password: Boolean(proxy.password),
    account_count: accounts.filter((a) => a.proxy_id === proxy.id).length,
  };
}

/**
 * The config-derived part of the settings object (gateway.md "Settings object", D11.3). The caller adds
 * `success`, `env_backed`, `needs_host_sync`, `config_writable` and `dev_capture`, which are not config.
 */
export function settingsView(config: Config, opts: { default_password_warning: boolean }) {
  const admin = effectiveAdmin(config);
  const embeddings = effectiveEmbeddings(config);
  return {
    admin: {
      has_password_hash: admin.password_hash !== null,
      jwt_expire_hours: admin.jwt_expire_hours,
      jwt_valid_after_unix: admin.jwt_valid_after_unix,
      default_password_warning: opts.default_password_warning,
    },
    runtime: effectiveRuntime(config),
    compat: effectiveCompat(config),
    responses: effectiveResponses(config),
    embeddings: { provider: embeddings.provider ?? "", dimensions: embeddings.dimensions },
    auto_delete: effectiveAutoDelete(config),
    current_input_file: effectiveCurrentInputFile(config),
    model_aliases: { ...(config.model_aliases ?? {}) },
    chat_history: effectiveChatHistory(config),
    release: { feed_url: config.release?.feed_url || "", has_feed_token: Boolean(config.release?.feed_token) },
    metrics: { public: config.metrics?.public === true, has_token: Boolean(config.metrics?.token) },
  };
}
