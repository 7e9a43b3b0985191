// HashV1 (core-upstream §6.2): SHA3-256 padding, rate and output, with Keccak round 0 skipped in every
// permutation call. Bun's CryptoHasher("sha3-256") cannot be used: it always runs all 24 rounds.
// The permutation runs in a small WebAssembly module built at start-up (keccak-wasm-module.ts);
// tests/helpers/keccak-reference.ts keeps a plain TypeScript version that the tests hold it against.
import { keccakEngine } from "./keccak-wasm";

export function hashV1(data: Uint8Array): Uint8Array {
  return keccakEngine().hash(data);
}
