// Retired model generations of other vendors (D6.5). Matched on the trimmed, lower-cased name without
// `-nothinking`; a configured alias is consulted first, so an operator can still revive one on purpose.
export const RETIRED_PATTERNS: readonly RegExp[] = [
  /^gpt-3\.5/,
  /^gpt-4-32k/,
  /^(text|code)-(davinci|curie|babbage|ada|cushman)-/,
  /^(davinci|curie|babbage)(-|$)/,
  /^claude-[12](\.|-|$)/,
  /^claude-instant/,
  /^gemini-1\.0-/,
  /^(chat|text|code|codechat)-bison/,
];

export function isRetiredModelName(normalisedName: string): boolean {
  return RETIRED_PATTERNS.some((re) => re.test(normalisedName));
}

export function retiredMessage(name: string): string {
  return `Model '${name}' is retired and no longer available.`;
}
