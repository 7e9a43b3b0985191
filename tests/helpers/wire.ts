// A WireConfig from a partial `upstream` section, for tests that build a core client by hand. The gateway takes
// its wire settings from the validated configuration (config/effective.ts); only tests start from a fragment.
import { WIRE_DEFAULTS, type WireConfig } from "../../src/core/wire";

/** The `upstream` section as it may appear in a configuration: every key optional, unknown keys ignored. */
export type UpstreamSection = Partial<WireConfig> & Record<string, unknown>;

/**
 * The wire configuration: §1 defaults overridden by the given `upstream` section. A value of the wrong type
 * (a string where a number belongs, an empty string) is ignored rather than sent to core: config validation
 * reports it, the client keeps working with the default.
 */
export function wireConfig(section: UpstreamSection | null | undefined = {}): WireConfig {
  const s = section ?? {};
  const out: Record<string, unknown> = { base_url: typeof s.base_url === "string" && s.base_url.trim() ? s.base_url.trim() : null };
  for (const [key, def] of Object.entries(WIRE_DEFAULTS)) {
    const v = s[key];
    if (typeof def === "number") out[key] = typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : def;
    else out[key] = typeof v === "string" && v.trim() ? v.trim() : def;
  }
  return out as WireConfig;
}
