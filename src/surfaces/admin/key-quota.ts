// The `quota` field of POST/PUT /admin/keys (issue 20): an object of optional limits, or null to remove every
// limit. Ranges are the config schema's (validated as a whole by the config store); here only the shape.
import type { KeyQuota } from "../../config/schema";
import { invalidRequest } from "../../util/invalid-request";

const FIELDS = ["requests_per_minute", "tokens_per_day"] as const;

/** undefined: not sent (keep); null: remove the quota; otherwise the new quota, replacing the old one. */
export function quotaFromBody(body: Record<string, unknown>): KeyQuota | null | undefined {
  const raw = body.quota;
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw !== "object" || Array.isArray(raw)) throw invalidRequest("quota must be an object or null.");
  const out: KeyQuota = {};
  for (const f of FIELDS) {
    const v = (raw as Record<string, unknown>)[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw invalidRequest(`quota.${f} must be a positive integer or null.`);
    out[f] = v;
  }
  return out;
}

/** Writes a parsed quota onto a key record: null or an empty object removes it. */
export function applyQuota(record: { quota?: KeyQuota | null }, quota: KeyQuota | null | undefined): void {
  if (quota === undefined) return;
  if (quota === null || Object.keys(quota).length === 0) delete record.quota;
  else record.quota = quota;
}
