// The answer search (core-upstream §6.3): n = 0 … difficulty−1 until HashV1(salt_expireAt_n) equals the
// challenge. The prefix is encoded once and only the digits are rewritten; a single-block candidate (the
// usual case) is absorbed straight from a reused buffer with no allocation per candidate.
import { keccakRounds } from "./keccak";
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
  const t = new Uint32Array(8);
  const tv = new DataView(input.target.buffer, input.target.byteOffset, 32);
  for (let i = 0; i < 8; i++) t[i] = tv.getUint32(4 * i, true);
  const block = new Uint8Array(RATE);
  const bv = new DataView(block.buffer);
  const state = new Uint32Array(50);
  block.set(prefix);
  for (let n = from; n < to; n++) {
    if (shouldStop && (n & 4095) === 0 && shouldStop()) return null;
    const digits = String(n);
    const len = prefix.length + digits.length;
    if (len >= RATE) {
      // Rare: a very long salt needs the general path.
      const msg = new Uint8Array(len);
      msg.set(prefix);
      for (let i = 0; i < digits.length; i++) msg[prefix.length + i] = digits.charCodeAt(i);
      const h = hashV1(msg);
      if (equal32(h, input.target)) return n;
      continue;
    }
    block.fill(0, prefix.length);
    for (let i = 0; i < digits.length; i++) block[prefix.length + i] = digits.charCodeAt(i);
    block[len] = 0x06;
    block[RATE - 1] = block[RATE - 1]! | 0x80;
    state.fill(0);
    for (let w = 0; w < RATE / 4; w++) state[w] = bv.getUint32(4 * w, true);
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
