// The nearest model names to one that does not resolve (issue 32: an unknown model points somewhere useful).
// Candidates are the native ids, the built-in aliases and the operator's aliases; nearness is the edit distance,
// so a typo ("core-v4-flsh", "gtp-4o") finds its model and an unrelated name finds nothing.
import { NATIVE_MODEL_IDS } from "./catalog";
import { BUILTIN_ALIASES } from "./aliases";

/** Levenshtein distance, stopping early once it exceeds `max` (the answer is then max + 1). */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Up to `limit` known names within a third of the name's length (at least 2 edits), nearest first. */
export function nearestModels(name: string, aliases?: Readonly<Record<string, string>> | null, limit = 3): string[] {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return [];
  const max = Math.max(2, Math.floor(wanted.length / 3));
  const names = new Set<string>([...NATIVE_MODEL_IDS, ...BUILTIN_ALIASES.keys(), ...Object.keys(aliases ?? {})]);
  const scored: [string, number][] = [];
  for (const n of names) {
    const d = editDistance(wanted, n.toLowerCase(), max);
    if (d <= max) scored.push([n, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  return scored.slice(0, limit).map(([n]) => n);
}
