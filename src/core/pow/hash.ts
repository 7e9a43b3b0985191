// HashV1 (core-upstream §6.2): SHA3-256 padding, rate and output, with Keccak round 0 skipped in every
// permutation call. Bun's CryptoHasher("sha3-256") cannot be used: it always runs all 24 rounds.
import { keccakRoundsFast as keccakRounds } from "./keccak-unrolled";

const RATE = 136;

export function hashV1(data: Uint8Array): Uint8Array {
  const state = new Uint32Array(50);
  // Domain padding: 0x06 … 0x80 (0x86 when both land on the last byte of the block).
  const padded = new Uint8Array((Math.floor(data.length / RATE) + 1) * RATE);
  padded.set(data);
  padded[data.length] = padded[data.length]! ^ 0x06;
  padded[padded.length - 1] = padded[padded.length - 1]! ^ 0x80;
  for (let off = 0; off < padded.length; off += RATE) {
    for (let w = 0, i = off; w < RATE / 4; w++, i += 4) state[w] = state[w]! ^ (padded[i]! | (padded[i + 1]! << 8) | (padded[i + 2]! << 16) | (padded[i + 3]! << 24));
    keccakRounds(state, 1);
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let w = 0; w < 8; w++) ov.setUint32(4 * w, state[w]!, true);
  return out;
}

export function hashV1Hex(data: Uint8Array): string {
  return Buffer.from(hashV1(data)).toString("hex");
}
