// Admin query strings as `query:` schemas (issue 34 item 5): Elysia reads, converts (t.Integer from the text)
// and checks them, a bad one is the admin 400 {detail} like any schema failure, and the documents list each
// parameter. Every parameter stays optional; unknown ones are ignored (D3.5). A bound's message names the
// parameter itself (`title`, `problem`: validation-error.ts), because Elysia reports a converted number's
// bound without its path.
import { t } from "elysia";

const int = (name: string, min: number, max: number, description: string) =>
  t.Optional(t.Integer({ minimum: min, maximum: max, title: name, problem: `must be an integer between ${min} and ${max}`, description }));
const text = (description: string) => t.Optional(t.String({ description }));
/** Read as before: "1" or "true" turns it on, anything else leaves it off. */
const flag = (description: string) => t.Optional(t.String({ description: `${description} "1" or "true" turns it on.` }));
export const isOn = (v: string | undefined) => v === "1" || v === "true";

export const AccountsQuery = t.Object({
  page: t.Optional(t.Integer({ minimum: 1, title: "page", problem: "must be an integer of at least 1", description: "The page, from 1 (default 1)." })),
  page_size: int("page_size", 1, 5000, "Accounts per page (default 10)."),
  q: text("Text inside the identifier, email, mobile, name or remark (any case)."),
});

export const VersionQuery = t.Object({ force: flag("Ask the release feed now instead of the cached answer.") });
export const ReleasesQuery = t.Object({
  force: flag("Ask the release feed now instead of the cached answer."),
  limit: int("limit", 1, 50, "How many releases (default 10)."),
  include_prereleases: flag("List prereleases too."),
});

/** The dev sample search: a limit out of 1–50 is clamped, as before; only a non-number is refused. */
export const SampleQuery = t.Object({
  q: text("Text inside a chain key, capture id or request."),
  limit: t.Optional(t.Integer({ minimum: 0, title: "limit", problem: "must be an integer between 1 and 50", description: "How many chains, 1–50 (default 20)." })),
});

export const ModelsViewQuery = t.Object({ resolve: text("A model name to resolve as a request would (alias, -nothinking, family rules).") });

export const ConfigImportQuery = t.Object({ mode: text("merge (default) or replace; wins over the body's mode (D2.10).") });

/** The request log's filters (ops/request-query.ts gives them their meaning); shared by requests, audit and series. */
const logFilters = {
  from: text("ISO 8601 time or Unix milliseconds, inclusive."),
  to: text("ISO 8601 time or Unix milliseconds, exclusive."),
  status: text("A class such as 4xx or a status such as 429."),
  error_code: text("The error code."),
  key: text("A key's name or fingerprint (caller:…)."),
  model: text("The requested or the resolved model."),
  surface: text("chat, responses, messages, generate, embeddings, files, admin…"),
  account: text("The masked account label, as the log shows it."),
  q: text("Text inside the request id."),
  limit: int("limit", 1, 500, "Rows per page (default 50)."),
  cursor: text("The previous page's next_cursor."),
};
export const RequestLogQuery = t.Object(logFilters);
export const AuditQuery = t.Object({
  ...logFilters,
  ok: t.Optional(t.Union([t.Literal("true"), t.Literal("false")], { description: "Only writes that succeeded, or only those refused." })),
  actor: text("Who wrote: admin-key, a console session…"),
  route: text("The route written through, as logged."),
});
export const SeriesQuery = t.Object({
  ...logFilters,
  bucket: t.Optional(t.Union([t.Literal("hour"), t.Literal("day")], { description: "hour (default, the last day) or day (the last 30 days)." })),
  group_by: t.Optional(t.Union([t.Literal("key"), t.Literal("model"), t.Literal("account"), t.Literal("none")], { description: "none by default." })),
  format: text("csv for a CSV file; JSON otherwise."),
});

export const UsageQuery = t.Object({
  from: text("A UTC day as YYYY-MM-DD (default: 30 days before `to`)."),
  to: text("A UTC day as YYYY-MM-DD (default: today)."),
  group_by: text("A comma-separated list of key, model, day (default: all three)."),
  format: t.Optional(t.Union([t.Literal("json"), t.Literal("csv")], { description: "json (default) or csv." })),
});
