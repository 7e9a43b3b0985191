// A second reading of a round's outcome, from the patch reducer's state at the end of the round instead of the
// frames: the tests hold the round tracker (src/core/round-tracker.ts) against it on the same vectors.
import type { RoundOutcome } from "../../src/core/round-tracker";

/**
 * The same decision from the reducer's state at EOF (§7.9 table): status FINISHED → finished, CONTENT_FILTER
 * → content_filter, status or quasi_status INCOMPLETE or auto_continue true → continue, else truncated.
 */
export function outcomeOfState(response: Record<string, unknown> | undefined): RoundOutcome {
  const up = (v: unknown) => (typeof v === "string" ? v.toUpperCase() : "");
  const status = up(response?.status);
  if (status === "FINISHED") return "finished";
  if (status === "CONTENT_FILTER") return "content_filter";
  if (status === "INCOMPLETE" || up(response?.quasi_status) === "INCOMPLETE" || response?.auto_continue === true) return "continue";
  return "truncated";
}
