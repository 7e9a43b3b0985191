// Keccak-f[1600] on 32-bit lane halves (lane i: lo = s[2i], hi = s[2i+1]), running rounds `from`..23.
// HashV1 skips round 0, so the round range is a parameter rather than a constant.

// Round constants RC[0..23] as [lo, hi] pairs (FIPS 202).
export const RC = new Uint32Array([
  0x00000001, 0x00000000, 0x00008082, 0x00000000, 0x0000808a, 0x80000000, 0x80008000, 0x80000000,
  0x0000808b, 0x00000000, 0x80000001, 0x00000000, 0x80008081, 0x80000000, 0x00008009, 0x80000000,
  0x0000008a, 0x00000000, 0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a, 0x00000000,
  0x8000808b, 0x00000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000, 0x00008003, 0x80000000,
  0x00008002, 0x80000000, 0x00000080, 0x80000000, 0x0000800a, 0x00000000, 0x8000000a, 0x80000000,
  0x80008081, 0x80000000, 0x00008080, 0x80000000, 0x80000001, 0x00000000, 0x80008008, 0x80000000,
]);

// ρ offsets by lane index i = x + 5y.
const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
// π: lane (x, y) moves to (y, 2x + 3y).
const PI = new Uint8Array(25);
for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) PI[x + 5 * y] = y + 5 * ((2 * x + 3 * y) % 5);

const B = new Uint32Array(50);
const C = new Uint32Array(10);

export function keccakRounds(s: Uint32Array, from: number): void {
  for (let round = from; round < 24; round++) {
    // θ
    for (let x = 0; x < 5; x++) {
      const i = 2 * x;
      C[i] = s[i]! ^ s[i + 10]! ^ s[i + 20]! ^ s[i + 30]! ^ s[i + 40]!;
      C[i + 1] = s[i + 1]! ^ s[i + 11]! ^ s[i + 21]! ^ s[i + 31]! ^ s[i + 41]!;
    }
    for (let x = 0; x < 5; x++) {
      const p = 2 * ((x + 4) % 5);
      const n = 2 * ((x + 1) % 5);
      const nlo = C[n]!;
      const nhi = C[n + 1]!;
      const dlo = C[p]! ^ ((nlo << 1) | (nhi >>> 31));
      const dhi = C[p + 1]! ^ ((nhi << 1) | (nlo >>> 31));
      for (let y = 0; y < 25; y += 5) {
        const j = 2 * (x + y);
        s[j] = s[j]! ^ dlo;
        s[j + 1] = s[j + 1]! ^ dhi;
      }
    }
    // ρ and π
    for (let i = 0; i < 25; i++) {
      const lo = s[2 * i]!;
      const hi = s[2 * i + 1]!;
      const r = RHO[i]!;
      const d = 2 * PI[i]!;
      if (r === 0) {
        B[d] = lo;
        B[d + 1] = hi;
      } else if (r < 32) {
        B[d] = (lo << r) | (hi >>> (32 - r));
        B[d + 1] = (hi << r) | (lo >>> (32 - r));
      } else if (r === 32) {
        B[d] = hi;
        B[d + 1] = lo;
      } else {
        const m = r - 32;
        B[d] = (hi << m) | (lo >>> (32 - m));
        B[d + 1] = (lo << m) | (hi >>> (32 - m));
      }
    }
    // χ
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        const a = 2 * (x + y);
        const b = 2 * (((x + 1) % 5) + y);
        const c = 2 * (((x + 2) % 5) + y);
        s[a] = B[a]! ^ (~B[b]! & B[c]!);
        s[a + 1] = B[a + 1]! ^ (~B[b + 1]! & B[c + 1]!);
      }
    }
    // ι
    s[0] = s[0]! ^ RC[2 * round]!;
    s[1] = s[1]! ^ RC[2 * round + 1]!;
  }
}
