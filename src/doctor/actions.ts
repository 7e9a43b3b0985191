// What the operator does about each doctor finding (issue 32): one sentence per cause, kept apart from the
// checks so the table's last column reads as a list of remedies.
import type { FailureClass } from "../accounts/health-classes";

export const ACTIONS = {
  noBase: "Set upstream.base_url (or SVC_CORE_BASE_URL) to core's origin, e.g. https://<core host>.",
  baseUrl: "upstream.base_url (or SVC_CORE_BASE_URL) must be core's origin (scheme, host, port; no path).",
  configWarning: "Fix the setting named, or remove it.",
  noKeys: "Add an API key (console Keys page, POST /admin/keys or the config's api_keys) for clients to call with.",
  noAccounts: "Add accounts (console Accounts page, POST /admin/accounts or the config's accounts list).",
  dataDir: "Make SVC_DATA_DIR (or the config's folder) writable by the gateway's user.",
  diskSpace: "Free disk space where the data directory lives (chat history and usage are written there).",
  dns: "Check the host name in the base URL and this machine's DNS resolver.",
  tcp: "Check that core's host and port are reachable from here (firewall, outbound proxy, the port).",
  tls: "Check the system's CA certificates, a TLS-intercepting proxy, and that the URL should be https.",
  core5xx: "Core is failing: retry later; nothing to fix on this side.",
  clock: "Synchronise this machine's clock (NTP): PoW challenges expire by core's clock.",
  proxy: "Check the proxy's address, port, type and credentials (console Proxies page, Test).",
  credentials: "Give the account a password (or a token) in the console or the config.",
  redis: "Start Redis or fix store.redis_url / SVC_REDIS_URL; without it the gateway does not start.",
} as const;

const BY_CLASS: Partial<Record<FailureClass, string>> = {
  credential_rejected: "Fix the account's password (console Accounts page, Edit).",
  suspected_ban: "Log in with this account in core's own app to see whether it is disabled; remove or replace it.",
  proxy_unreachable: ACTIONS.proxy,
  base_url_wrong: ACTIONS.baseUrl,
  network: ACTIONS.tcp,
  timeout: ACTIONS.tcp,
  core_error: ACTIONS.core5xx,
  token_expired: "Give the account a password so the gateway can log in again, or a fresh token.",
};

export function actionFor(cls: FailureClass | undefined): string {
  return (cls && BY_CLASS[cls]) || "Test the account in the console for details.";
}
