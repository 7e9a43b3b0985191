// Each managed account in exactly one state (issue 31): the overview, /admin/queue/status's companion and the
// per-account gauges all read this, so they cannot contradict each other. Precedence: a failed login says
// the most (it usually also cools the account down), then a cooldown, then leases in flight, else available.
import type { ConfigStore } from "../config/store";
import type { Pool } from "../accounts/pool-api";
import type { AccountManager } from "../accounts/manager";
import { accountIdentifier } from "../config/identity";
import { maskLabel } from "./mask-label";
import type { AccountGauge } from "./metrics";

export interface AccountStateRow extends AccountGauge {
  identifier: string;
}

/** Takes the three services it reads, not the context: ops/ sits under the context (tests/toolchain/imports.test.ts). */
export function accountStates(ctx: { config: ConfigStore; pool: Pool; accounts: AccountManager }): AccountStateRow[] {
  return (ctx.config.get().accounts ?? []).map((acc) => {
    const id = accountIdentifier(acc);
    const inFlight = ctx.pool.inFlight(id);
    const state: AccountGauge["state"] =
      ctx.accounts.status(id).test_status === "failed" ? "login_failed" : ctx.pool.inCooldown(id) ? "cooling_down" : inFlight > 0 ? "in_use" : "available";
    return { identifier: id, label: maskLabel(id), inFlight, state };
  });
}

/** Counts per state; they add up to the number of accounts. */
export function stateCounts(rows: AccountStateRow[]): Record<AccountGauge["state"], number> {
  const out = { available: 0, in_use: 0, cooling_down: 0, login_failed: 0 };
  for (const r of rows) out[r.state] += 1;
  return out;
}
