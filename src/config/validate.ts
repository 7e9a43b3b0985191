// Whole-config validation with one clear message: the dotted path of the first failing field and what
// is wrong with it (D2.5, D2.11). Also the light normalisation every load and write applies (D2.6,
// D11.7). Values of string fields are never echoed, since they may be secrets (D2.8).
import { Value } from "@sinclair/typebox/value";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { TSchema } from "@sinclair/typebox";
import { ConfigSchema, type Config } from "./schema";
import { accountIdentifier, generatedProxyId } from "./identity";
import { asNativeModelId } from "../models/resolve";
import { DEFAULTS } from "./defaults";
import { parseCidrList } from "../util/cidr";

export type ValidationResult = { ok: true; config: Config } | { ok: false; field: string; problem: string };

/** `field: problem`, the one-line form used in ConfigError and 400 `{detail}`. */
export function formatProblem(r: { field: string; problem: string }): string {
  return `${r.field}: ${r.problem}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Load-time normalisation on a copy: drops `toolcall` (D2.6), lower-cases proxy types, turns a numeric
 * string port into an integer and fills a missing proxy id (D11.7, D0.2).
 */
export function normaliseRaw(raw: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(raw);
  delete out.toolcall;
  if (Array.isArray(out.proxies)) {
    for (const p of out.proxies) {
      if (!isObject(p)) continue;
      if (typeof p.type === "string") p.type = p.type.trim().toLowerCase();
      if (typeof p.host === "string") p.host = p.host.trim();
      if (typeof p.port === "string" && /^\s*\d+\s*$/.test(p.port)) p.port = Number(p.port);
      if ((p.id === undefined || p.id === null || p.id === "") && typeof p.type === "string" && typeof p.host === "string")
        p.id = generatedProxyId({ type: p.type, host: p.host, port: p.port as number, username: p.username as string | undefined });
    }
  }
  return out;
}

// "/accounts/2/email" → "accounts.2.email" (the dotted form of D4.3).
function dotted(path: string): string {
  if (path === "") return "(root)";
  return path
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

function describe(schema: TSchema): string {
  const s = schema as Record<string, any>;
  if (typeof s.problem === "string") return s.problem.replace(/^must be /, "");
  if (Array.isArray(s.anyOf)) {
    // null is accepted everywhere as "unset"; naming it in every message would only add noise.
    const alts = (s.anyOf as TSchema[]).filter((a) => (a as any).type !== "null");
    if (alts.length > 0 && alts.every((a) => (a as any).const !== undefined))
      return `one of ${alts.map((a) => JSON.stringify((a as any).const)).join(", ")}`;
    return alts.map(describe).join(" or ");
  }
  if (s.const !== undefined) return JSON.stringify(s.const);
  switch (s.type) {
    case "integer":
    case "number": {
      const kind = s.type === "integer" ? "an integer" : "a number";
      if (s.minimum !== undefined && s.maximum !== undefined) return `${kind} between ${s.minimum} and ${s.maximum}`;
      if (s.minimum !== undefined) return `${kind} of at least ${s.minimum}`;
      if (s.maximum !== undefined) return `${kind} of at most ${s.maximum}`;
      return kind;
    }
    case "string":
      if (s.minLength === 1 && s.maxLength === undefined) return "a non-empty string";
      return "a string";
    case "boolean":
      return "a boolean";
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "null":
      return "null";
    default:
      return "a valid value";
  }
}

function shown(value: unknown): string {
  if (value === undefined) return "";
  if (value === null || typeof value === "number" || typeof value === "boolean") return ` (got ${JSON.stringify(value)})`;
  if (typeof value === "string") return " (got a string)";
  if (Array.isArray(value)) return " (got an array)";
  return " (got an object)";
}

function schemaProblem(error: ValueError): { field: string; problem: string } {
  const field = dotted(error.path);
  if (error.type === ValueErrorType.ObjectRequiredProperty) return { field, problem: "is required" };
  return { field, problem: `must be ${describe(error.schema)}${shown(error.value)}` };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === "http:" || u.protocol === "https:") && u.host !== "";
  } catch {
    return false;
  }
}

type Problem = { field: string; problem: string } | null;

// Rules a JSON schema cannot express: cross-field limits, uniqueness, alias targets, URLs.
function crossFieldProblem(c: Config): Problem {
  const seenKeys = new Map<string, number>();
  for (const [i, rec] of (c.api_keys ?? []).entries()) {
    const prev = seenKeys.get(rec.key);
    if (prev !== undefined) return { field: `api_keys.${i}.key`, problem: `duplicates api_keys.${prev}.key` };
    seenKeys.set(rec.key, i);
  }

  // D8.1's "needs a password or a token" is enforced where accounts are created (accountProblem), not
  // here: a host-synced config has its tokens removed (D14.2), and a token-only account in it must not
  // stop the next instance from starting.
  const seenAccounts = new Map<string, number>();
  for (const [i, acc] of (c.accounts ?? []).entries()) {
    const id = accountIdentifier(acc);
    if (id === "") continue;
    const prev = seenAccounts.get(id);
    if (prev !== undefined) return { field: `accounts.${i}`, problem: `has the same identifier as accounts.${prev}` };
    seenAccounts.set(id, i);
  }

  const seenProxies = new Map<string, number>();
  for (const [i, p] of (c.proxies ?? []).entries()) {
    if (p.host.includes("://")) return { field: `proxies.${i}.host`, problem: "must not include a scheme" };
    const prev = seenProxies.get(p.id);
    if (prev !== undefined) return { field: `proxies.${i}.id`, problem: `duplicates proxies.${prev}.id` };
    seenProxies.set(p.id, i);
  }

  for (const [name, target] of Object.entries(c.model_aliases ?? {})) {
    if (name.trim() === "") return { field: "model_aliases", problem: "alias names must not be blank" };
    if (!asNativeModelId(target)) return { field: `model_aliases.${name}`, problem: "must name a native model id (core-v4-…)" };
  }

  const perAccount = c.runtime?.account_max_inflight ?? DEFAULTS.runtime.account_max_inflight;
  const global = c.runtime?.global_max_inflight;
  if (global !== undefined && global !== null && global < perAccount)
    return {
      field: "runtime.global_max_inflight",
      problem: `must be at least runtime.account_max_inflight (${perAccount}) (got ${global})`,
    };

  const feed = c.release?.feed_url;
  if (feed && !isHttpUrl(feed)) return { field: "release.feed_url", problem: "must be an absolute http or https URL" };
  const base = c.upstream?.base_url;
  if (base && !isHttpUrl(base)) return { field: "upstream.base_url", problem: "must be an absolute http or https URL" };
  const trusted = parseCidrList(c.server?.trusted_proxies ?? []);
  if (!trusted.ok) return { field: `server.trusted_proxies.${trusted.index}`, problem: trusted.problem };
  return null;
}

/** D8.1 for one account record being created or edited: null when usable, else the problem. */
export function accountProblem(acc: { email?: string | null; mobile?: string | null; password?: string | null; token?: string | null }): string | null {
  const hasLogin = Boolean((acc.email?.trim() || acc.mobile?.trim()) && acc.password);
  if (hasLogin || acc.token) return null;
  if (!acc.email?.trim() && !acc.mobile?.trim() && !acc.token) return "needs an email, a mobile or a token";
  return "needs a password (with the email or mobile) or a token";
}

// Optional sections are `T | null` unions, for which TypeBox only reports "expected union value" at the
// section. When the value is not null, the single non-null alternative is what was meant: descend into
// it so the message names the innermost field.
function firstError(schema: TSchema, value: unknown): ValueError | undefined {
  const e = Value.Errors(schema, value).First();
  if (!e || e.type !== ValueErrorType.Union || e.value === null) return e;
  const alts = ((e.schema as any).anyOf as TSchema[]).filter((a) => (a as any).type !== "null");
  if (alts.length !== 1 || (alts[0] as any).anyOf) return e;
  const inner = firstError(alts[0]!, e.value);
  return inner ? { ...inner, path: e.path + inner.path } : e;
}

/** Validates a parsed config as a whole; on success returns the normalised copy. Never throws. */
export function validateConfig(raw: unknown): ValidationResult {
  if (!isObject(raw)) return { ok: false, field: "(root)", problem: "must be a JSON object" };
  const candidate = normaliseRaw(raw);
  // Value.Check first: a valid config (every start, every write) skips the error generator's walk, which costs
  // a start several times a plain check (issue 35). They agree: Errors yields nothing exactly when Check passes.
  const first = Value.Check(ConfigSchema, candidate) ? undefined : firstError(ConfigSchema, candidate);
  if (first) return { ok: false, ...schemaProblem(first) };
  const config = candidate as Config;
  const cross = crossFieldProblem(config);
  if (cross) return { ok: false, ...cross };
  return { ok: true, config };
}
