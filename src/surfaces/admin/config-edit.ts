// Pure edits of a config draft used by the config, import and account routes (D2.7, D2.10, D11.2).
// They run inside ConfigStore.update, so a concurrent admin write never interleaves with them.
import { accessFromBody, applyAccess } from "./key-access";
import type { Account, ApiKeyRecord, Config, Proxy } from "../../config/schema";
import { accountIdentifier, normaliseMobileForStorage } from "../../config/identity";
import { normaliseRaw } from "../../config/validate";
import { invalidRequest } from "../../util/invalid-request";
import { applyQuota, quotaFromBody } from "./key-quota";

const ACCOUNT_FIELDS = ["email", "mobile", "password", "token", "name", "remark", "proxy_id", "device_id"] as const;
const PACING_FIELDS = ["min_interval_ms", "daily_completions"] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * An account record from an admin body: only the stored fields (output-only fields such as
 * `has_password` or `test_status` sent back by a UI are dropped), strings only (the two pacing fields are whole
 * numbers), mobile in stored form.
 */
export function accountFromBody(raw: unknown, where: string): Account & { identifier?: string } {
  if (!isObject(raw)) throw invalidRequest(`${where} must be an object.`);
  const out: Record<string, string> = {};
  for (const f of ACCOUNT_FIELDS) {
    const v = raw[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") throw invalidRequest(`${where}.${f} must be a string.`);
    out[f] = v;
  }
  // Issue 32: the account's own pacing, whole numbers from 0 (the config schema bounds them further).
  for (const f of PACING_FIELDS) {
    const v = raw[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw invalidRequest(`${where}.${f} must be a whole number from 0.`);
    (out as Record<string, unknown>)[f] = v;
  }
  if (out.email !== undefined) out.email = out.email.trim();
  if (out.mobile !== undefined) out.mobile = normaliseMobileForStorage(out.mobile);
  for (const f of ["email", "mobile", "password", "token", "proxy_id"] as const) if (out[f] === "") delete out[f];
  const result = out as Account & { identifier?: string };
  if (typeof raw.identifier === "string" && raw.identifier) result.identifier = raw.identifier;
  return result;
}

/** D11.2: an account sent without password/token keeps the stored secret of the same identifier. */
export function keepSecrets(incoming: Account & { identifier?: string }, stored: readonly Account[]): Account {
  const { identifier: given, ...acc } = incoming;
  const id = accountIdentifier(acc) || given || "";
  const prev = stored.find((a) => accountIdentifier(a) === id);
  if (prev) {
    if (!acc.password && prev.password) acc.password = prev.password;
    if (!acc.token && prev.token) acc.token = prev.token;
  }
  return acc;
}

/** An API key record from a body (`{key, name, remark}` or a bare string). */
export function keyRecordFromBody(raw: unknown, where: string): ApiKeyRecord {
  if (typeof raw === "string") return { key: raw, name: "", remark: "" };
  if (!isObject(raw) || typeof raw.key !== "string") throw invalidRequest(`${where} must be a key string or an object with a string key.`);
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const record: ApiKeyRecord = { key: raw.key, name: str(raw.name), remark: str(raw.remark) };
  applyQuota(record, quotaFromBody(raw));
  applyAccess(record, accessFromBody(raw));
  return record;
}

/** Sets both key forms to the same list (D2.7) so the store's reconciliation has nothing to guess. */
export function setKeys(c: Config, records: ApiKeyRecord[]): void {
  const seen = new Set<string>();
  const unique = records.filter((r) => !seen.has(r.key) && seen.add(r.key));
  c.api_keys = unique;
  c.keys = unique.map((r) => r.key);
}

/** The current records, including legacy `keys` entries that have no record yet. */
export function keyRecords(c: Config): ApiKeyRecord[] {
  const records = [...(c.api_keys ?? [])].map((r) => ({ ...r, name: r.name ?? "", remark: r.remark ?? "" }));
  const have = new Set(records.map((r) => r.key));
  for (const k of c.keys ?? []) if (!have.has(k)) records.push({ key: k, name: "", remark: "" });
  return records;
}

/** Fields present and not null/"" overwrite (D2.10 merge). */
function overlay<T extends object>(target: T, incoming: Record<string, unknown>): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(incoming)) {
    if (v === undefined || v === null || v === "") continue;
    if ((target as Record<string, unknown>)[k] !== v) changed = true;
    (target as Record<string, unknown>)[k] = v;
  }
  return changed;
}

export interface MergeCounts {
  imported_keys: number;
  imported_accounts: number;
  imported_proxies: number;
}

/** D2.10 merge of an imported config into a draft. Counts entries added or updated. */
export function mergeImport(c: Config, incomingRaw: Record<string, unknown>): MergeCounts {
  const incoming = normaliseRaw(incomingRaw);
  const counts: MergeCounts = { imported_keys: 0, imported_accounts: 0, imported_proxies: 0 };

  if (Array.isArray(incoming.api_keys) || Array.isArray(incoming.keys)) {
    const records = keyRecords(c);
    const add = [
      ...(Array.isArray(incoming.api_keys) ? incoming.api_keys : []).map((r, i) => keyRecordFromBody(r, `api_keys.${i}`)),
      ...(Array.isArray(incoming.keys) ? incoming.keys : []).map((k, i) => keyRecordFromBody(k, `keys.${i}`)),
    ];
    const counted = new Set<string>();
    for (const rec of add) {
      const prev = records.find((r) => r.key === rec.key);
      if (!prev) records.push(rec);
      else overlay(prev, { name: rec.name, remark: rec.remark });
      counted.add(rec.key);
    }
    counts.imported_keys = counted.size;
    setKeys(c, records);
  }

  if (Array.isArray(incoming.accounts)) {
    const list = (c.accounts ??= []);
    for (const [i, raw] of incoming.accounts.entries()) {
      const acc = accountFromBody(raw, `accounts.${i}`);
      delete acc.identifier;
      const id = accountIdentifier(acc);
      if (!id) throw invalidRequest(`accounts.${i}: needs an email, a mobile or a token`);
      const prev = list.find((a) => accountIdentifier(a) === id);
      if (prev) overlay(prev, acc as Record<string, unknown>);
      else list.push(acc);
      counts.imported_accounts++;
    }
  }

  if (Array.isArray(incoming.proxies)) {
    const list = (c.proxies ??= []);
    for (const [i, raw] of incoming.proxies.entries()) {
      if (!isObject(raw) || typeof raw.id !== "string") throw invalidRequest(`proxies.${i} must be a proxy object.`);
      const prev = list.find((p) => p.id === raw.id);
      if (prev) overlay(prev, raw);
      else list.push(raw as unknown as Proxy);
      counts.imported_proxies++;
    }
  }

  if (isObject(incoming.model_aliases)) c.model_aliases = { ...(c.model_aliases ?? {}), ...(incoming.model_aliases as Record<string, string>) };

  for (const section of ["admin", "runtime", "responses", "embeddings"] as const) {
    const v = incoming[section];
    if (!isObject(v)) continue;
    const target = { ...((c[section] as Record<string, unknown> | null | undefined) ?? {}) };
    overlay(target, v);
    (c as Record<string, unknown>)[section] = target;
  }
  return counts;
}

/** Identifiers whose password or token differ between two configs (D8.12: they become untested). */
export function accountsWithChangedSecrets(prev: Config, next: Config): string[] {
  const before = new Map((prev.accounts ?? []).map((a) => [accountIdentifier(a), a]));
  const changed: string[] = [];
  for (const a of next.accounts ?? []) {
    const id = accountIdentifier(a);
    const old = before.get(id);
    if (old && ((old.password ?? "") !== (a.password ?? "") || (old.token ?? "") !== (a.token ?? ""))) changed.push(id);
  }
  return changed;
}
