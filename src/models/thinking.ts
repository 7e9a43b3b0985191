// Whether core thinks for a request, and whether the client sees it (D7.1–D7.4, svcml-and-prompts.md
// §3.10). decisions.md wins where the specs differ: the generic switches are read in D7.2's order and
// only D7.2's values are recognised (see the test file for the conflicts this settles).
import type { Surface } from "../pipeline/types";
import { isNothinking, type NativeModelId } from "./catalog";

/**
 * Effort levels that mean "on". D7.2 lists minimal…xhigh and says every level other than `none` means
 * on; svcml-and-prompts.md §3.10 also names `max`, which is an effort level, so it is accepted too.
 */
export const EFFORT_LEVELS: ReadonlySet<string> = new Set(["minimal", "low", "medium", "high", "xhigh", "max"]);
const HIGH_EFFORT: ReadonlySet<string> = new Set(["high", "xhigh", "max"]);
/** svcml-and-prompts.md §3.10: a token budget at least this large asks for the effort note. */
export const HIGH_EFFORT_BUDGET = 16000;

/** One recognised switch: on/off and the effort level it named, if any. */
interface Switch {
  on: boolean;
  effort?: string;
  field: string;
}

export interface ThinkingDecision {
  /** `thinking_enabled` sent to core. */
  thinking: boolean;
  /** Thinking text rendered to the client (D7.4); always false when `thinking` is false. */
  exposeThinking: boolean;
  /** Append the effort note to the latest user turn (svcml-and-prompts.md §3.10). */
  highEffort: boolean;
  /** What the request asked for: true on, false off, null when no switch was recognised. */
  requested: boolean | null;
  /** The dotted field that decided, for logs and tests; null when the model default applied. */
  source: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : undefined);

function parseThinking(v: unknown, field: string): Switch | null {
  if (typeof v === "boolean") return { on: v, field };
  const s = lower(v);
  if (s !== undefined) {
    if (s === "enabled" || s === "on") return { on: true, field };
    if (s === "disabled" || s === "off" || s === "none") return { on: false, field };
    return null;
  }
  if (isObject(v)) {
    const t = lower(v.type);
    if (t === "enabled" || t === "adaptive") return { on: true, field };
    if (t === "disabled") return { on: false, field };
  }
  return null;
}

function parseEffort(v: unknown, field: string): Switch | null {
  const s = lower(v);
  if (s === undefined) return null;
  if (s === "none") return { on: false, field };
  return EFFORT_LEVELS.has(s) ? { on: true, effort: s, field } : null;
}

function parseReasoning(v: unknown, field: string): Switch | null {
  if (typeof v === "boolean") return { on: v, field };
  if (typeof v === "string") return parseEffort(v, field);
  if (isObject(v)) {
    if (v.effort !== undefined) {
      const e = parseEffort(v.effort, `${field}.effort`);
      if (e) return e;
    }
    if (typeof v.enabled === "boolean") return { on: v.enabled, field: `${field}.enabled` };
  }
  return null;
}

// D7.2 order: the three top-level fields, then the same three inside extra_body.
function genericSwitch(body: Record<string, unknown>): Switch | null {
  const scopes: [Record<string, unknown>, string][] = [[body, ""]];
  if (isObject(body.extra_body)) scopes.push([body.extra_body, "extra_body."]);
  for (const [scope, prefix] of scopes) {
    const found =
      (scope.thinking !== undefined ? parseThinking(scope.thinking, `${prefix}thinking`) : null) ??
      (scope.reasoning !== undefined ? parseReasoning(scope.reasoning, `${prefix}reasoning`) : null) ??
      (scope.reasoning_effort !== undefined ? parseEffort(scope.reasoning_effort, `${prefix}reasoning_effort`) : null);
    if (found) return found;
  }
  return null;
}

/** The generic request-level override alone (model-mapping.json `thinking_overrides`). */
export function thinkingOverride(body: Record<string, unknown>): boolean | null {
  return genericSwitch(body)?.on ?? null;
}

function pick(o: Record<string, unknown>, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}

interface GenerateThinking {
  sw: Switch | null;
  includeThoughts: boolean;
  highEffort: boolean;
}

// D7.3 for generate-content, with svcml-and-prompts.md §3.10's additions that decisions.md leaves
// open (a positive or -1 budget and any thinkingLevel mean on).
function generateThinking(body: Record<string, unknown>): GenerateThinking {
  const gc = pick(body, "generationConfig", "generation_config");
  const tc = isObject(gc) ? pick(gc, "thinkingConfig", "thinking_config") : undefined;
  if (!isObject(tc)) return { sw: null, includeThoughts: false, highEffort: false };
  const field = "generationConfig.thinkingConfig";
  const budget = pick(tc, "thinkingBudget", "thinking_budget");
  const include = pick(tc, "includeThoughts", "include_thoughts") === true;
  const level = lower(pick(tc, "thinkingLevel", "thinking_level"));
  const highEffort = (typeof budget === "number" && budget >= HIGH_EFFORT_BUDGET) || level === "high";
  let sw: Switch | null = null;
  if (typeof budget === "number" && budget === 0) sw = { on: false, field: `${field}.thinkingBudget` };
  else if (include) sw = { on: true, field: `${field}.includeThoughts` };
  else if (typeof budget === "number" && (budget > 0 || budget === -1)) sw = { on: true, field: `${field}.thinkingBudget` };
  else if (level) sw = { on: true, field: `${field}.thinkingLevel` };
  return { sw, includeThoughts: include, highEffort };
}

function messagesBudgetIsHigh(body: Record<string, unknown>): boolean {
  const t = body.thinking;
  return isObject(t) && typeof t.budget_tokens === "number" && t.budget_tokens >= HIGH_EFFORT_BUDGET;
}

/**
 * Thinking for one request. `nativeId` is the resolved model (with `-nothinking` when applicable);
 * `-nothinking` always wins (D7.1). The messages surface's native switch is `thinking.type`, which is
 * the generic `thinking` field, so it needs no separate reading.
 */
export function resolveThinking(body: Record<string, unknown>, nativeId: NativeModelId, surface: Surface): ThinkingDecision {
  const generic = genericSwitch(body);
  const gen = surface === "generate" ? generateThinking(body) : null;
  const sw = generic ?? gen?.sw ?? null;
  const requested = sw ? sw.on : null;
  const source = sw ? sw.field : null;

  if (isNothinking(nativeId)) return { thinking: false, exposeThinking: false, highEffort: false, requested, source };

  // Every base model thinks unless the request turned it off (D7.1).
  const thinking = requested ?? true;
  let exposeThinking: boolean;
  switch (surface) {
    case "chat":
    case "responses":
      exposeThinking = thinking;
      break;
    case "messages":
      // Hidden unless the client asked for it, since messages clients that did not ask cannot render it.
      exposeThinking = thinking && requested === true;
      break;
    case "generate":
      exposeThinking = thinking && ((gen?.includeThoughts ?? false) || generic?.on === true);
      break;
  }
  const effortHigh = sw?.effort !== undefined && HIGH_EFFORT.has(sw.effort);
  const budgetHigh = (surface === "messages" && messagesBudgetIsHigh(body)) || (gen?.highEffort ?? false);
  return { thinking, exposeThinking, highEffort: thinking && (effortHigh || budgetHigh), requested, source };
}
