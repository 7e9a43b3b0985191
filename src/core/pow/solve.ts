// The answer search (core-upstream §6.3): n = 0 … difficulty−1 until HashV1(salt_expireAt_n) equals the
// challenge. The prefix is encoded once and only the digits are rewritten; a single-block candidate (the
// usual case) is absorbed straight from a reused buffer with no allocation per candidate.
import { keccakRoundsFast as keccakRounds } from "./keccak-unrolled";
import { hashV1 } from "./hash";

const RATE = 136;

export interface SolveInput {
  salt: string;
  expireAt: number;
  difficulty: number;
  /** 32-byte target digest. */
  target: Uint8Array;
}

export function powPrefix(salt: string, expireAt: number): Uint8Array {
  return new TextEncoder().encode(`${salt}_${expireAt}_`);
}

/** Searches [from, to) and returns the answer or null; `shouldStop` is polled every few thousand candidates. */
export function solveRange(input: SolveInput, from = 0, to = input.difficulty, shouldStop?: () => boolean): number | null {
  const prefix = powPrefix(input.salt, input.expireAt);
  const P = prefix.length;
  const t = new Uint32Array(8);
  const tv = new DataView(input.target.buffer, input.target.byteOffset, 32);
  for (let i = 0; i < 8; i++) t[i] = tv.getUint32(4 * i, true);
  // The state of an all-prefix block (digits and the 0x06 pad still zero, the final 0x80 set): each
  // candidate starts from a copy of it and only the few words holding digits change.
  const block = new Uint8Array(RATE);
  block.set(prefix);
  block[RATE - 1] = 0x80;
  const base = new Uint32Array(50);
  for (let w = 0; w < RATE / 4; w++) base[w] = block[4 * w]! | (block[4 * w + 1]! << 8) | (block[4 * w + 2]! << 16) | (block[4 * w + 3]! << 24);
  const state = new Uint32Array(50);
  const tail = new Uint8Array(16);
  const firstWord = P >> 2;
  for (let n = from; n < to; n++) {
    if (shouldStop && (n & 4095) === 0 && shouldStop()) return null;
    // decimal digits of n, written after the prefix, then the 0x06 pad
    let len = 0;
    let v = n;
    do {
      len++;
      v = (v / 10) | 0;
    } while (v > 0);
    if (P + len >= RATE) {
      // Rare: a very long salt needs the general path.
      const msg = new Uint8Array(P + len);
      msg.set(prefix);
      msg.set(new TextEncoder().encode(String(n)), P);
      if (equal32(hashV1(msg), input.target)) return n;
      continue;
    }
    const off = P & 3;
    tail.fill(0);
    for (let k = 0; k < off; k++) tail[k] = prefix[P - off + k]!;
    v = n;
    for (let k = len - 1; k >= 0; k--) {
      tail[off + k] = 48 + (v % 10);
      v = (v / 10) | 0;
    }
    tail[off + len] = 0x06;
    state.set(base);
    const words = (off + len + 4) >> 2;
    for (let w = 0; w < words; w++) {
      const i = 4 * w;
      const word = tail[i]! | (tail[i + 1]! << 8) | (tail[i + 2]! << 16) | (tail[i + 3]! << 24);
      state[firstWord + w] = firstWord + w === 33 ? (word | 0x80000000) >>> 0 : word;
    }
    keccakRounds(state, 1);
    if (state[0] === t[0] && state[1] === t[1] && state[2] === t[2] && state[3] === t[3] && state[4] === t[4] && state[5] === t[5] && state[6] === t[6] && state[7] === t[7])
      return n;
  }
  return null;
}

function equal32(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}
