/** The parts' bytes in one array: the part itself when there is one (callers hand over parts they own). */
export function concatBytes(parts: Uint8Array[], total?: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let size = total ?? 0;
  if (total === undefined) for (const p of parts) size += p.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
