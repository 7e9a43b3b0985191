// Per-key enable/disable, expiry and allowed models (issue 31, decisions.md 4.3 amended 2026-11-27). A key that
// is disabled or expired is still a configured key: it is refused with 401 key_disabled / key_expired and never
// falls through to pass-through (where core would be asked to take it as a token). Allowed models are checked
// against the resolved model id, after the name resolved, in each surface's error shape (the surface's onError).
import type { ApiKeyRecord, Config } from "../config/schema";
import { GatewayError } from "../util/gateway-error";

export class KeyPolicies {
  private indexed: { config: Config; byKey: Map<string, ApiKeyRecord> } | null = null;

  private record(config: Config, key: string): ApiKeyRecord | undefined {
    // The config object is replaced on every change: the index is rebuilt only then.
    if (this.indexed?.config !== config) this.indexed = { config, byKey: new Map((config.api_keys ?? []).map((r) => [r.key, r])) };
    return this.indexed.byKey.get(key);
  }

  /**
   * Throws 401 for a disabled or expired key; returns the key's allowed models (undefined = all). A key listed
   * only in the legacy `keys` form has no record, hence no policy.
   */
  admit(config: Config, key: string, nowMs: number): readonly string[] | undefined {
    const r = this.record(config, key);
    if (!r) return undefined;
    if (r.enabled === false) throw new GatewayError(401, "key_disabled", "This API key is disabled.");
    if (typeof r.expires_at === "number" && nowMs >= r.expires_at * 1000) throw new GatewayError(401, "key_expired", "This API key has expired.");
    return r.allowed_models && r.allowed_models.length > 0 ? r.allowed_models : undefined;
  }
}

/** 403 model_not_allowed when the key lists its models and the resolved one is not among them. */
export function checkModelAllowed(allowed: readonly string[] | undefined, resolvedId: string): void {
  if (allowed && !allowed.includes(resolvedId))
    throw new GatewayError(403, "model_not_allowed", `This API key may not use the model ${resolvedId}.`, { param: "model" });
}

/** One per process: the index is per config object, rebuilt when it changes. */
export const keyPolicies = new KeyPolicies();
