// The family heuristic (D6.4): a last resort for names of other vendors' families that are neither
// native nor aliased, so new vendor releases keep working without a gateway update.
import type { NativeModelId } from "./catalog";

// `o<digits>` must be followed by `-` or the end so that e.g. "omni-x" or "o1x" are not mistaken for
// the reasoning family.
const FAMILY_PREFIX =
  /^(gpt-|chatgpt-|o\d+(-|$)|codex-|claude-|gemini-|gemma-|llama-|meta-llama\/|qwen|qwq-|mistral-|mixtral-|magistral-|ministral-|codestral-|command-|phi-|grok-|kimi-|glm-)/;

const HEAVY_MARKERS = ["opus", "-pro", "codex", "reason", "think", "-r1", "qwq", "magistral"] as const;

/** True when the heuristic may be applied to this (normalised) name at all. */
export function hasKnownFamilyPrefix(name: string): boolean {
  // The native prefix never falls back: an unknown core-* name is a typo, not a new family member.
  if (name.startsWith("core-")) return false;
  return FAMILY_PREFIX.test(name);
}

/** The native id the heuristic picks, or null when the name is outside the known families. */
export function familyHeuristic(name: string): NativeModelId | null {
  if (!hasKnownFamilyPrefix(name)) return null;
  if (name.includes("vision") || name.includes("-vl")) return "core-v4-vision";
  const heavy = /^o\d/.test(name) || HEAVY_MARKERS.some((m) => name.includes(m));
  const search = name.includes("search");
  if (heavy && search) return "core-v4-pro-search";
  if (heavy) return "core-v4-pro";
  if (search) return "core-v4-flash-search";
  return "core-v4-flash";
}
