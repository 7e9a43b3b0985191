// The answer search (core-upstream §6.3): n = 0 … difficulty−1 until HashV1(salt_expireAt_n) equals the
// challenge. The padded block (prefix, digits, 0x06 … 0x80) is laid out once per chunk inside the
// WebAssembly memory; the module then increments the ASCII digits in place, so a candidate costs one
// permutation and no allocation. The module compares digest lane 0 only; a hit is confirmed on all
// 32 bytes here before it is returned.
import { hashV1 } from "./hash";
import { keccakEngine } from "./keccak-wasm";
import { RATE } from "./keccak-wasm-module";
import { DEFAULT_DIFFICULTY, PowChallengeError, type PowChallenge } from "./challenge";

export interface SolveInput {
  salt: string;
  expireAt: number;
  difficulty: number;
  /** 32-byte target digest. */
  target: Uint8Array;
}

export interface SolveOptions {
  /** First candidate (default 0): lets a caller split one search into ranges. */
  from?: number;
  /** End of the range, exclusive (default: the challenge's difficulty). */
  to?: number;
  /** Polled between chunks; returning true abandons the search (result null). */
  shouldStop?: () => boolean;
  /** Candidates per chunk (default 8192): the granularity of shouldStop. */
  chunk?: number;
}

const encoder = new TextEncoder();

export function powPrefix(salt: string, expireAt: number): Uint8Array {
  return encoder.encode(`${salt}_${expireAt}_`);
}

/** Searches a validated challenge; null when no n in range matches (or shouldStop stopped it). */
export function solve(ch: Pick<PowChallenge, "salt" | "expire_at" | "challenge"> & { difficulty?: number }, opts: SolveOptions = {}): number | null {
  if (!/^[0-9a-fA-F]{64}$/.test(ch.challenge)) throw new PowChallengeError("bad_challenge", "challenge must be 64 hex characters");
  const input = { salt: ch.salt, expireAt: ch.expire_at, difficulty: ch.difficulty ?? DEFAULT_DIFFICULTY, target: Buffer.from(ch.challenge, "hex") };
  return solveRange(input, opts.from, opts.to, opts.shouldStop, opts.chunk);
}

/** Searches [from, to) and returns the answer or null; `shouldStop` is polled between chunks. */
export function solveRange(input: SolveInput, from = 0, to = input.difficulty, shouldStop?: () => boolean, chunk = 8192): number | null {
  return searchPrefix(powPrefix(input.salt, input.expireAt), input.target, from, to, shouldStop, chunk);
}

/** The search with the prefix (salt_expireAt_ as UTF-8) already encoded: what the pool's worker reads from shared memory. */
export function searchPrefix(prefix: Uint8Array, target: Uint8Array, from: number, to: number, shouldStop?: () => boolean, chunk = 8192): number | null {
  const P = prefix.length;
  const engine = keccakEngine();
  const block = new Uint8Array(RATE);
  // Candidates are taken in bands of equal digit count: within a band the padding stays put.
  for (let len = 1, lo = 0, hi = 10; lo < to; len++, lo = hi, hi *= 10) {
    let n = Math.max(from, lo);
    const end = Math.min(to, hi);
    while (n < end) {
      if (shouldStop?.()) return null;
      const count = Math.min(chunk, end - n);
      if (P + len >= RATE) {
        // A salt so long that prefix + digits + 0x06 spills into a second block: the general hash.
        const found = scan(prefix, n, n + count, target);
        if (found !== null) return found;
        n += count;
        continue;
      }
      // Candidate A walks the first half of the chunk, B the second (B's last step may run one past the
      // chunk when count is odd; such a hit is never accepted).
      const half = Math.ceil(count / 2);
      engine.setTarget(target);
      engine.setBlock(0, singleBlock(block, prefix, n, len));
      engine.setBlock(1, singleBlock(block, prefix, count > 1 ? n + half : n, len));
      const k = engine.search(P, len, half);
      if (k >= 0) {
        // Lane 0 matched for A or B; all 32 bytes decide. A 64-bit coincidence (never seen in practice) is
        // handled by finishing this chunk the slow way.
        if (matches(prefix, n + k, target)) return n + k;
        if (n + half + k < n + count && matches(prefix, n + half + k, target)) return n + half + k;
        const found = scan(prefix, n + k + 1, n + half, target) ?? scan(prefix, n + half + k + 1, n + count, target);
        if (found !== null) return found;
      }
      n += count;
    }
  }
  return null;
}

/** prefix ‖ decimal(n) ‖ 0x06 0…0 0x80 in `block` (136 bytes; 0x86 when the pad lands on the last byte). */
function singleBlock(block: Uint8Array, prefix: Uint8Array, n: number, len: number): Uint8Array {
  block.fill(0);
  block.set(prefix);
  encoder.encodeInto(String(n), block.subarray(prefix.length));
  block[prefix.length + len] = 0x06;
  block[RATE - 1]! |= 0x80;
  return block;
}

function scan(prefix: Uint8Array, from: number, to: number, target: Uint8Array): number | null {
  for (let m = from; m < to; m++) if (matches(prefix, m, target)) return m;
  return null;
}

function matches(prefix: Uint8Array, n: number, target: Uint8Array): boolean {
  const digits = encoder.encode(String(n));
  const msg = new Uint8Array(prefix.length + digits.length);
  msg.set(prefix);
  msg.set(digits, prefix.length);
  const h = hashV1(msg);
  for (let i = 0; i < 32; i++) if (h[i] !== target[i]) return false;
  return true;
}
