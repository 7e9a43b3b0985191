// The access fields of a key record (issue 31) in POST/PUT /admin/keys and POST /admin/config: `enabled`,
// `expires_at` (Unix seconds, as every `expires_at` of the API, decisions.md §0) and `allowed_models`. Like
// `quota`: absent keeps the field, null removes it (enabled again, no expiry, every model).
import type { ApiKeyRecord } from "../../config/schema";
import { invalidRequest } from "../../util/invalid-request";

export type KeyAccess = Partial<{ enabled: boolean | null; expires_at: number | null; allowed_models: string[] | null }>;

export function accessFromBody(body: Record<string, unknown>): KeyAccess {
  const out: KeyAccess = {};
  if ("enabled" in body && body.enabled !== undefined) {
    if (body.enabled !== null && typeof body.enabled !== "boolean") throw invalidRequest("enabled must be true, false or null.");
    out.enabled = body.enabled as boolean | null;
  }
  if ("expires_at" in body && body.expires_at !== undefined) {
    const v = body.expires_at;
    if (v !== null && (typeof v !== "number" || !Number.isInteger(v) || v < 0)) throw invalidRequest("expires_at must be Unix seconds or null.");
    out.expires_at = v as number | null;
  }
  if ("allowed_models" in body && body.allowed_models !== undefined) {
    const v = body.allowed_models;
    if (v !== null && (!Array.isArray(v) || v.some((m) => typeof m !== "string" || m.trim() === "" || m.length > 128) || v.length > 200))
      throw invalidRequest("allowed_models must be a list of model ids or null.");
    out.allowed_models = v === null ? null : [...new Set((v as string[]).map((m) => m.trim()))];
  }
  return out;
}

export function applyAccess(record: ApiKeyRecord, a: KeyAccess): void {
  if (a.enabled !== undefined) {
    // Enabled is the default: only a disabled key carries the field.
    if (a.enabled === false) record.enabled = false;
    else delete record.enabled;
  }
  if (a.expires_at !== undefined) {
    if (a.expires_at === null) delete record.expires_at;
    else record.expires_at = a.expires_at;
  }
  if (a.allowed_models !== undefined) {
    if (a.allowed_models === null || a.allowed_models.length === 0) delete record.allowed_models;
    else record.allowed_models = a.allowed_models;
  }
}

/** Only the access fields that differ from the defaults (the config view lists keys as the config holds them). */
export function setAccess(r: ApiKeyRecord): Partial<Pick<ApiKeyRecord, "enabled" | "expires_at" | "allowed_models">> {
  return {
    ...(r.enabled === false ? { enabled: false } : {}),
    ...(typeof r.expires_at === "number" ? { expires_at: r.expires_at } : {}),
    ...(r.allowed_models?.length ? { allowed_models: r.allowed_models } : {}),
  };
}

/** The access fields as the admin views show them. */
export function accessView(r: ApiKeyRecord): { enabled: boolean; expires_at: number | null; allowed_models: string[] } {
  return { enabled: r.enabled !== false, expires_at: r.expires_at ?? null, allowed_models: r.allowed_models ?? [] };
}
