// Whitespace tests on char codes with the same meaning as JavaScript's `\s` (the detector used `/\s/` first;
// keeping the set identical keeps its behaviour), without allocating a one-character string per test.

export function isSpaceCode(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The first index at or after `from` that is not whitespace (s.length when none). */
export function skipSpaces(s: string, from: number): number {
  let j = from;
  while (j < s.length && isSpaceCode(s.charCodeAt(j))) j++;
  return j;
}

/** Whether s[from, to) holds a non-whitespace character. */
export function hasNonSpace(s: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (!isSpaceCode(s.charCodeAt(k))) return true;
  return false;
}
