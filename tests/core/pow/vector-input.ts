// Builds the input bytes of a pow.json hash vector: either input_utf8, or input_desc
// ("the ASCII byte 'a' (0x61) repeated 135 times").
export function vectorInput(h: { input_utf8?: string; input_desc?: string; input_len_bytes: number }): Uint8Array {
  if (h.input_utf8 !== undefined) return new TextEncoder().encode(h.input_utf8);
  const m = /\(0x([0-9a-f]{2})\) repeated (\d+) times/.exec(h.input_desc ?? "");
  if (!m) throw new Error(`cannot build input from ${JSON.stringify(h.input_desc)}`);
  return new Uint8Array(Number(m[2])).fill(parseInt(m[1]!, 16));
}
