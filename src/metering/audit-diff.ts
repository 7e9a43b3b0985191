// What an admin write changed, for the audit log (issue 31), with every secret masked. The config is flattened
// to "path → value" in a form keyed by what an operator recognises — keys by name and fingerprint (never the
// key), accounts by their masked label, proxies by id — and two such views are compared. A secret is compared
// by its real value but shown as "***" (or "" when unset), so the log says a password changed and nothing more.
import type { Config } from "../config/schema";
import { accountIdentifier } from "../config/identity";
import { callerFingerprint } from "../util/hash";
import { maskLabel } from "./mask-label";

export interface Change {
  path: string;
  before: string | null;
  after: string | null;
}

const SECRET_FIELDS = /(^|_)(password|token|secret|hash|key)$|^redis_url$/;

/** A masked value and a private digest to compare it by; the digest never leaves this module. */
interface Cell {
  shown: string;
  cmp: string;
}

// Bun's own SHA-256: node:crypto stays off the start path (issue 35).
const digest = (v: string) => new Bun.CryptoHasher("sha256").update(v).digest("hex");

function cell(field: string, v: unknown): Cell {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  if (SECRET_FIELDS.test(field)) return { shown: text ? "***" : "", cmp: digest(text) };
  return { shown: text.length > 200 ? `${text.slice(0, 200)}…` : text, cmp: text };
}

function flatten(prefix: string, value: unknown, out: Map<string, Cell>): void {
  if (value === null || value === undefined) return;
  if (typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(prefix ? `${prefix}.${k}` : k, v, out);
    return;
  }
  const field = prefix.slice(prefix.lastIndexOf(".") + 1);
  out.set(prefix, cell(field, value));
}

export function auditView(c: Config): Map<string, Cell> {
  const out = new Map<string, Cell>();
  const { api_keys, keys: _legacy, accounts, proxies, ...rest } = c;
  for (const r of api_keys ?? []) {
    const { key, ...fields } = r;
    const at = `api_keys[${r.name ? `${r.name} ` : ""}${callerFingerprint(key)}]`;
    out.set(at, { shown: "present", cmp: "present" });
    flatten(at, fields, out);
  }
  for (const a of accounts ?? []) {
    const at = `accounts[${maskLabel(accountIdentifier(a))}]`;
    out.set(at, { shown: "present", cmp: "present" });
    const { email: _e, mobile: _m, ...fields } = a;
    flatten(at, fields, out);
  }
  for (const p of proxies ?? []) flatten(`proxies[${p.id}]`, { ...p, id: undefined }, out);
  flatten("", rest, out);
  return out;
}

export function diffConfigs(before: Config, after: Config, max = 200): Change[] {
  if (before === after) return [];
  const a = auditView(before);
  const b = auditView(after);
  const changes: Change[] = [];
  for (const [path, x] of a) {
    const y = b.get(path);
    if (!y) changes.push({ path, before: x.shown, after: null });
    else if (x.cmp !== y.cmp) changes.push({ path, before: x.shown, after: y.shown });
  }
  for (const [path, y] of b) if (!a.has(path)) changes.push({ path, before: null, after: y.shown });
  return changes.slice(0, max);
}
