// The request's ask for high effort (svcml-and-prompts.md §3.10), read from the generic switches every surface
// accepts (D7.2). Whether thinking is on is decided in src/models/thinking.ts; this only says "effort was high".
import { isObject } from "./content";

export const HIGH_EFFORTS: ReadonlySet<string> = new Set(["high", "xhigh", "max"]);
export const HIGH_EFFORT_BUDGET_TOKENS = 16000;

function effortOf(v: unknown): string | undefined {
  if (typeof v === "string") return v.trim().toLowerCase();
  if (isObject(v) && typeof v.effort === "string") return v.effort.trim().toLowerCase();
  return undefined;
}

/** `reasoning_effort`, `reasoning` (string or {effort}) and `thinking.effort`, also inside `extra_body`. */
export function genericEffortIsHigh(body: Record<string, unknown>): boolean {
  for (const src of [body, isObject(body.extra_body) ? body.extra_body : {}]) {
    for (const v of [src.reasoning_effort, src.reasoning, src.thinking]) {
      const e = effortOf(v);
      if (e !== undefined && HIGH_EFFORTS.has(e)) return true;
    }
  }
  return false;
}
