// The local token estimate (vectors/token-estimate.json, D9.7): floor(a/4) + floor((10n+7)/13) with a = code
// points below 128 and n = the rest; at least 1 for non-empty text.
export function estimateTokens(text: string): number {
  if (!text) return 0;
  // All ASCII (most prompts and code) is told by one native count: UTF-8 takes more bytes than UTF-16 units
  // for anything else. Prompts are estimated on every request and an agent's is often hundreds of KB.
  if (Buffer.byteLength(text, "utf8") === text.length) return Math.max(1, Math.floor(text.length / 4));
  let a = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) a++;
    else if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      // The low half of a surrogate pair: counted with its high half as one code point.
      const prev = text.charCodeAt(i - 1);
      if (prev < 0xd800 || prev > 0xdbff) n++;
    } else n++;
  }
  return Math.max(1, Math.floor(a / 4) + Math.floor((n * 10 + 7) / 13));
}
