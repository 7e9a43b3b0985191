// Requested model name → native id (D6.2). Used by every surface that takes a `model`, by the models
// endpoints and by config validation (alias targets).
import { baseOf, isNativeModelId, isNothinking, NOTHINKING_SUFFIX, toNothinking, type BaseModelId, type NativeModelId } from "./catalog";
import { BUILTIN_ALIASES } from "./aliases";
import { familyHeuristic } from "./heuristic";
import { isRetiredModelName, retiredMessage } from "./retired";
import { nearestModels } from "./suggest";

export type ModelAliases = Readonly<Record<string, string>> | null | undefined;

export type ResolveResult =
  | { ok: true; id: NativeModelId; base: BaseModelId; nothinking: boolean }
  | { ok: false; code: "model_not_found" | "model_retired"; message: string };

/** Trim, lower-case and strip one leading `models/` (the generate-content SDK's form). */
export function normaliseModelName(name: string): string {
  const n = name.trim().toLowerCase();
  return n.startsWith("models/") ? n.slice("models/".length) : n;
}

/** A native id written in any letter case or with `models/`, else null (alias targets, D6.2). */
export function asNativeModelId(value: unknown): NativeModelId | null {
  if (typeof value !== "string") return null;
  const n = normaliseModelName(value);
  return isNativeModelId(n) ? n : null;
}

// Config objects are replaced, never mutated, so a lookup table per aliases object can be cached.
const configAliasCache = new WeakMap<object, Map<string, NativeModelId>>();

function configAliasTable(aliases: Readonly<Record<string, string>>): Map<string, NativeModelId> {
  let table = configAliasCache.get(aliases);
  if (!table) {
    table = new Map();
    for (const [name, target] of Object.entries(aliases)) {
      const native = asNativeModelId(target);
      // Validation rejects bad targets at write time; a stray one is skipped rather than crash a request.
      if (native) table.set(normaliseModelName(name), native);
    }
    configAliasCache.set(aliases, table);
  }
  return table;
}

function aliasTarget(name: string, aliases: ModelAliases): NativeModelId | undefined {
  if (aliases && typeof aliases === "object") {
    const hit = configAliasTable(aliases).get(name);
    if (hit) return hit;
  }
  return BUILTIN_ALIASES.get(name);
}

type Step = { id: NativeModelId } | { retired: true } | null;

// Steps 1, 2, 4 and 5 of D6.2: the part that is repeated for the name without `-nothinking`.
function resolveSteps(name: string, aliases: ModelAliases): Step {
  if (isNativeModelId(name)) return { id: name };
  const aliased = aliasTarget(name, aliases);
  if (aliased) return { id: aliased };
  if (isRetiredModelName(name)) return { retired: true };
  const guessed = familyHeuristic(name);
  return guessed ? { id: guessed } : null;
}

function ok(id: NativeModelId): ResolveResult {
  return { ok: true, id, base: baseOf(id), nothinking: isNothinking(id) };
}

export function resolveModel(requested: string, configAliases?: ModelAliases): ResolveResult {
  const name = normaliseModelName(requested);
  // The message quotes what the client sent (trimmed), as clients echo it back to their users.
  const shown = requested.trim();
  if (name === "") return { ok: false, code: "model_not_found", message: "A model name is required." };

  // Steps 1 and 2 see the full name first, so an alias literally named "x-nothinking" wins over step 3.
  if (isNativeModelId(name)) return ok(name);
  const aliased = aliasTarget(name, configAliases);
  if (aliased) return ok(aliased);

  let step: Step;
  let nothinking = false;
  if (name.endsWith(NOTHINKING_SUFFIX) && name.length > NOTHINKING_SUFFIX.length) {
    nothinking = true;
    step = resolveSteps(name.slice(0, -NOTHINKING_SUFFIX.length), configAliases);
  } else {
    step = resolveSteps(name, configAliases);
  }
  if (step && "id" in step) return ok(nothinking ? toNothinking(step.id) : step.id);
  if (step && "retired" in step) return { ok: false, code: "model_retired", message: retiredMessage(shown) };
  const near = nearestModels(shown, configAliases);
  const hint = near.length ? ` Did you mean ${near.map((n) => `'${n}'`).join(", ")}?` : "";
  return { ok: false, code: "model_not_found", message: `The model '${shown}' does not exist.${hint} GET /v1/models lists the models this gateway serves.` };
}
