// A second, independent HashV1: the textbook sponge over the loop-form permutation in keccak-reference.ts
// (32-bit lane halves). Too slow for the search; the tests hold the WebAssembly version against it.
import { keccakRounds } from "./keccak-reference";
import { hashV1 } from "../../src/core/pow/hash";

const RATE = 136;

export function hashV1Reference(data: Uint8Array): Uint8Array {
  const state = new Uint32Array(50);
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

/** The gateway's HashV1 (the WebAssembly one) as hex, for comparing with the vectors. */
export function hashV1Hex(data: Uint8Array): string {
  return Buffer.from(hashV1(data)).toString("hex");
}
