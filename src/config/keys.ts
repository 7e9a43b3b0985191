// The two forms of business keys (D2.7): legacy `keys` (strings) and `api_keys` (records). Both stay
// equal: after every change `keys` is rewritten as the list of `api_keys[].key`. An admin change may
// touch either form, so the reconciliation looks at what each form gained or lost since the last state.
import type { ApiKeyRecord, Config } from "./schema";

function keyList(c: Config | null): string[] {
  return c?.keys ?? [];
}

function recordKeys(c: Config | null): string[] {
  return (c?.api_keys ?? []).map((r) => r.key);
}

/**
 * Rewrites `next.keys`/`next.api_keys` in place. `prev` is the state before the change (null at load):
 * a key removed from either form is removed from both; a key added to `keys` only becomes a record.
 */
export function syncKeys(prev: Config | null, next: Config): void {
  if (next.keys == null && next.api_keys == null) return;
  const nextKeys = keyList(next);
  const nextRecordKeys = new Set(recordKeys(next));
  const removedFromKeys = new Set(keyList(prev).filter((k) => !nextKeys.includes(k)));
  const removedFromRecords = new Set(recordKeys(prev).filter((k) => !nextRecordKeys.has(k)));

  const records: ApiKeyRecord[] = [];
  const seen = new Set<string>();
  for (const rec of next.api_keys ?? []) {
    if (removedFromKeys.has(rec.key)) continue;
    records.push(rec);
    seen.add(rec.key);
  }
  for (const key of nextKeys) {
    if (seen.has(key) || removedFromRecords.has(key)) continue;
    records.push({ key, name: "", remark: "" });
    seen.add(key);
  }
  next.api_keys = records;
  next.keys = records.map((r) => r.key);
}

/** The managed-key set: keys ∪ api_keys[].key (D2.7). */
export function managedKeySet(c: Config): Set<string> {
  return new Set([...keyList(c), ...recordKeys(c)]);
}
