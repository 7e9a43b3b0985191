// One HashV1 WebAssembly instance per thread (module state is per isolate, so each worker gets its own).
// Compiled lazily on first use: a process that never hashes never compiles it.
import { BLOCK2, keccakWasmBytes, MSG, RATE, STATE, TARGET } from "./keccak-wasm-module";

interface Exports {
  memory: WebAssembly.Memory;
  absorb(ptr: number, nblocks: number): void;
  search(p: number, len: number, count: number): number;
}

export interface KeccakEngine {
  /** HashV1 of `data` (a fresh 32-byte array). */
  hash(data: Uint8Array): Uint8Array;
  /** Sets the target digest the search compares against (its first 8 bytes: lane 0). */
  setTarget(target: Uint8Array): void;
  /**
   * Lays out a padded single block (136 bytes, from the caller) as candidate A (`half` 0) or B (`half` 1)
   * of the two-candidate search.
   */
  setBlock(half: 0 | 1, block: Uint8Array): void;
  /**
   * Tries `count` steps; each step hashes candidates A and B, then increments the `len` ASCII digits that
   * start at byte p of each. Returns the step whose A or B digest has the target's lane 0, or −1.
   */
  search(p: number, len: number, count: number): number;
}

let engine: KeccakEngine | undefined;

export function keccakEngine(): KeccakEngine {
  if (engine) return engine;
  const inst = new WebAssembly.Instance(new WebAssembly.Module(keccakWasmBytes()), {});
  const ex = inst.exports as unknown as Exports;
  let bytes = new Uint8Array(ex.memory.buffer);
  const view = () => {
    // A grow() detaches the old buffer; re-wrap lazily.
    if (bytes.buffer !== ex.memory.buffer) bytes = new Uint8Array(ex.memory.buffer);
    return bytes;
  };
  engine = {
    hash(data) {
      const padded = (Math.floor(data.length / RATE) + 1) * RATE;
      const need = MSG + padded - ex.memory.buffer.byteLength;
      if (need > 0) ex.memory.grow(Math.ceil(need / 65536));
      const m = view();
      m.set(data, MSG);
      m.fill(0, MSG + data.length, MSG + padded);
      m[MSG + data.length] = 0x06;
      m[MSG + padded - 1]! |= 0x80;
      ex.absorb(MSG, padded / RATE);
      return m.slice(STATE, STATE + 32);
    },
    setTarget(target) {
      view().set(target.subarray(0, 8), TARGET);
    },
    setBlock(half, block) {
      const m = view();
      for (let lane = 0; lane < RATE / 8; lane++) m.set(block.subarray(8 * lane, 8 * lane + 8), BLOCK2 + 16 * lane + 8 * half);
    },
    search: (p, len, count) => ex.search(p, len, count),
  };
  return engine;
}
