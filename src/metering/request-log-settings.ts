// `request_log` with its defaults (issue 31): on, 7 days, 200,000 rows. Read on every prune, so a change through
// the settings applies without a restart (turning the log on or off takes one).
import type { Config } from "../config/schema";

export const REQUEST_LOG_DEFAULTS = { enabled: true, retention_days: 7, max_rows: 200_000 };

export function requestLogSettings(c: Config): { enabled: boolean; retentionDays: number; maxRows: number } {
  const r = c.request_log ?? {};
  return {
    enabled: r.enabled ?? REQUEST_LOG_DEFAULTS.enabled,
    retentionDays: r.retention_days ?? REQUEST_LOG_DEFAULTS.retention_days,
    maxRows: r.max_rows ?? REQUEST_LOG_DEFAULTS.max_rows,
  };
}
