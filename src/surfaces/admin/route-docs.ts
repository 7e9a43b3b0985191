// What /admin/openapi.json says about each admin route: summary, tag, credential and answers. A route file
// spreads its entry into its options (`...adminDoc("GET /admin/keys")`), so the `detail:` and `response:`
// Elysia reads live in one table here, one line per route, beside the others of its kind.
import { doc, ErrorAnswers, type Audience } from "../../http/openapi-doc";
import type { TSchema } from "elysia";
import * as A from "./answer-schema";
import * as O from "./answer-schema-ops";

const entry = (tag: string, summary: string, answer: TSchema, audience: Audience = "admin", description?: string) => ({
  detail: doc(tag, audience, summary, description),
  response: { 200: answer, 400: ErrorAnswers.admin, 401: ErrorAnswers.admin } as Record<number, TSchema>,
});

const ADMIN_DOCS = {
  "POST /admin/login": entry("auth", "Sign in with the admin key or password; returns a console JWT.", A.LoginAnswer, "open", "Failed attempts count toward the per-address lockout (D5.9)."),
  "GET /admin/verify": entry("auth", "Check a console JWT and how long it has left.", A.VerifyAnswer, "adminJwtOnly"),
  "POST /admin/settings/password": entry("auth", "Set the admin password; every console session signs in again.", A.PasswordAnswer),
  "GET /admin/config": entry("config", "The configuration, secrets masked.", A.ConfigView),
  "POST /admin/config": entry("config", "Replace the key, account and alias lists present in the body.", A.ConfigReplaceAnswer),
  "POST /admin/config/import": entry("config", "Import a configuration (mode merge or replace).", A.ConfigImportAnswer),
  "GET /admin/config/export": entry("config", "A full backup of the configuration, secrets included (no-store).", A.ConfigExport),
  "GET /admin/export": entry("config", "The configuration as JSON text and Base64 (no-store).", A.ConfigExport),
  "GET /admin/settings": entry("config", "The runtime settings and where the configuration lives.", A.SettingsView),
  "PUT /admin/settings": entry("config", "Change settings section by section; checked by the configuration rules.", A.SettingsAnswer),
  "POST /admin/keys": entry("keys", "Add a business API key.", A.KeysAnswer),
  "PUT /admin/keys/:key": entry("keys", "Change a key's labels, quota and access.", A.KeysAnswer),
  "DELETE /admin/keys/:key": entry("keys", "Delete a business API key.", A.KeysAnswer),
  "GET /admin/keys": entry("keys", "Every key with its state, quota, access and today's usage.", A.KeysView),
  "GET /admin/proxies": entry("proxies", "The outbound proxies, credentials masked.", A.ProxiesView),
  "POST /admin/proxies": entry("proxies", "Add an outbound proxy.", A.ProxyAnswer),
  "PUT /admin/proxies/:id": entry("proxies", "Change an outbound proxy.", A.ProxyAnswer),
  "DELETE /admin/proxies/:id": entry("proxies", "Delete a proxy; the accounts bound to it are unbound.", A.ProxyDeleteAnswer),
  "POST /admin/proxies/test": entry("proxies", "Reach core through a stored or described proxy.", A.ProxyTestAnswer),
  "POST /admin/accounts/test": entry("accounts", "Sign one account in and optionally send it a message.", O.AccountTestAnswer),
  "POST /admin/accounts/test-all": entry("accounts", "Test every account.", O.AccountTestAllAnswer),
  "POST /admin/accounts/sessions/delete-all": entry("accounts", "Delete an account's sessions on core.", O.DeleteSessionsAnswer),
  "POST /admin/test": entry("accounts", "Send one chat completion through the gateway itself.", O.SelfTestAnswer),
  "GET /admin/health/accounts": entry("health", "Every account's health record.", O.HealthList),
  "GET /admin/accounts/:id/health": entry("health", "One account's health record and recent events.", O.HealthView),
  "POST /admin/accounts/:id/health/reset": entry("health", "Clear an account's cooldown and failure streak.", O.HealthWriteAnswer),
  "POST /admin/accounts/:id/health/probe": entry("health", "Probe an account now.", O.HealthWriteAnswer),
  "GET /admin/doctor": entry("health", "The doctor's checks of configuration, core and accounts.", O.DoctorReport),
  "GET /admin/accounts": entry("accounts", "The managed accounts, paged and searched, secrets masked.", O.AccountsPage),
  "POST /admin/accounts": entry("accounts", "Add a managed account.", O.AccountAnswer),
  "PUT /admin/accounts/:id": entry("accounts", "Change an account's labels, secrets or pacing.", O.AccountAnswer),
  "DELETE /admin/accounts/:id": entry("accounts", "Delete a managed account.", O.AccountDeleteAnswer),
  "PUT /admin/accounts/:id/proxy": entry("accounts", "Bind an account to a proxy, or unbind it.", O.AccountProxyAnswer),
  "GET /admin/queue/status": entry("ops", "The account pool and the wait queue.", O.QueueStatus),
  "POST /admin/import": entry("accounts", "Import keys and accounts in bulk; invalid entries are skipped.", O.BulkImportAnswer),
  "GET /admin/chat-history": entry("history", "Recent conversations (ETag: If-None-Match answers 304).", O.HistoryList),
  "DELETE /admin/chat-history": entry("history", "Delete every stored conversation.", O.Done),
  "PUT /admin/chat-history/settings": entry("history", "Set how many conversations are kept.", O.HistorySettingsAnswer),
  "GET /admin/chat-history/:id": entry("history", "One conversation (ETag: If-None-Match answers 304).", O.HistoryEntry),
  "DELETE /admin/chat-history/:id": entry("history", "Delete one conversation.", O.Done),
  "GET /admin/dev/captures": entry("dev", "The captured core exchanges.", O.CaptureList),
  "DELETE /admin/dev/captures": entry("dev", "Clear the captured core exchanges.", O.CaptureCleared),
  "GET /admin/dev/raw-samples/query": entry("dev", "Find capture chains by text.", O.CaptureQuery),
  "POST /admin/dev/raw-samples/save": entry("dev", "Save a capture chain as a raw sample.", O.SampleSaved),
  "POST /admin/dev/raw-samples/capture": entry("dev", "Send a request through the gateway and save what core answered.", O.SampleSaved),
  "GET /admin/host/config": entry("host", "What the environment says about the hosting platform.", O.HostConfig),
  "POST /admin/host/sync": entry("host", "Push the configuration to the hosting platform.", O.HostSyncAnswer),
  "GET /admin/host/status": entry("host", "Whether the configuration differs from what was last pushed.", O.HostStatus),
  "POST /admin/host/status": entry("host", "Whether a draft configuration differs from what was last pushed.", O.HostStatus),
  "GET /admin/version": entry("ops", "The running version and the latest release.", O.VersionAnswer),
  "GET /admin/version/releases": entry("ops", "Recent releases.", O.ReleasesAnswer),
  "GET /admin/usage": entry("ops", "Token usage per key or model over a range of days (JSON or CSV).", O.UsageAnswer),
  "GET /admin/console/status": entry("ops", "What the console's overview shows: version, uptime, account states, recent errors.", O.ConsoleStatus),
  "GET /admin/requests": entry("ops", "The request log, newest first, filtered and paged by cursor.", O.RequestPage),
  "GET /admin/requests/:request_id": entry("ops", "One logged request by the id its client saw in X-Request-Id.", O.RequestDetail),
  "GET /admin/audit": entry("ops", "The audit log of admin writes, newest first.", O.AuditPage),
  "GET /admin/traffic": entry("ops", "Traffic over the last hour and day, and each account's state.", O.TrafficAnswer),
  "GET /admin/usage/series": entry("ops", "Requests and tokens per hour or day, grouped (JSON or CSV).", O.SeriesAnswer),
  "GET /admin/models": entry("ops", "Native models, aliases and the resolution rules; `resolve` resolves one name.", O.ModelsView),
};

/** A route that names a record answers 404 when there is none; the writes that add one, 409 when it exists. */
const CONFLICTS = ["POST /admin/keys", "POST /admin/accounts", "PUT /admin/accounts/:id", "POST /admin/proxies"];
for (const [route, { response }] of Object.entries(ADMIN_DOCS)) {
  // GET /admin/requests: 404 while the request log is off.
  if (route.includes("/:") || route === "GET /admin/requests") response[404] = ErrorAnswers.admin;
  if (CONFLICTS.includes(route)) response[409] = ErrorAnswers.admin;
}

export type AdminRoute = keyof typeof ADMIN_DOCS;

/** The documentation options of one admin route, spread into its Elysia options. */
export const adminDoc = <K extends AdminRoute>(route: K): (typeof ADMIN_DOCS)[K] => ADMIN_DOCS[route];
