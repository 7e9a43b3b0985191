// The HashV1 WebAssembly module, emitted as bytes at start-up (no build step, no toolchain).
//
// Two functions share one round generator:
//   absorb(ptr, nblocks)   the sponge for any message, on 64-bit lanes (i64, i64.rotl).
//   search(p, len, count)  the answer search: two candidates at once, one per 64-bit half of a 128-bit SIMD
//                          value (i64x2). SIMD has no 64-bit rotate (a rotate is shl | shr_u) but has
//                          and-not for χ, and every instruction does two candidates' work.
// Rounds run in a loop (two per iteration, state a → e → a) and each round goes row by row, so only five
// ρπ temporaries are live. Both choices were measured under Bun 1.4 (figures in docs/PERFORMANCE.md):
// the fully unrolled form compiled worse, and row-by-row beat a 25-lane temporary array by ~20%.
//
// Memory layout (fixed offsets, shared with keccak-wasm.ts):
//   STATE   0..31     digest output of absorb (lanes 0..3)
//   TARGET  64..71    lane 0 of the target digest; search compares only this lane (the caller confirms all 32 bytes)
//   RCT     128..319  the 24 round constants (a data segment), read by the round loop
//   BLOCK2  512..783  two single padded blocks interleaved lane by lane: lane i of candidate A at 16i,
//                     of candidate B at 16i + 8, so one v128.load gives lane i of both
//   MSG     1024..    padded message for absorb; memory grows as needed
import { encodeModule, I32, I64, op, sleb, uleb, V128, VOID, vop, type FuncDef } from "./wasm-encoder";

export const STATE = 0;
export const TARGET = 64;
export const RCT = 128;
export const BLOCK2 = 512;
export const MSG = 1024;
export const RATE = 136;

// FIPS 202 round constants RC[0..23]. HashV1 never applies RC[0]: its permutation is rounds 1..23.
export const RC: readonly bigint[] = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];
export const FIRST_ROUND = 1;

// ρ offsets by lane index i = x + 5y, and π: lane (x, y) moves to (y, 2x + 3y).
export const RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
export const PI = Array.from({ length: 25 }, (_, i) => {
  const x = i % 5;
  const y = (i - x) / 5;
  return y + 5 * ((2 * x + 3 * y) % 5);
});

const get = (i: number) => [op.local_get, ...uleb(i)];
const set = (i: number) => [op.local_set, ...uleb(i)];
const tee = (i: number) => [op.local_tee, ...uleb(i)];
const i64c = (v: bigint) => [op.i64_const, ...sleb(BigInt.asIntN(64, v))];
const i32c = (v: number) => [op.i32_const, ...sleb(BigInt(v))];
const memarg = (alignLog2: number, offset: number) => [alignLog2, ...uleb(offset)];

/**
 * Lane locals: a and e (the state, alternately input and output of a round), b (one row after ρπ),
 * c (column parities), d (θ terms).
 */
interface Locals {
  a: number[];
  e: number[];
  b: number[];
  c: number[];
  d: number[];
}
const LANE_LOCALS = 65;
function lanes(base: number): Locals {
  const r = (o: number, n: number) => Array.from({ length: n }, (_, i) => base + o + i);
  return { a: r(0, 25), e: r(25, 25), b: r(50, 5), c: r(55, 5), d: r(60, 5) };
}
// PI_INV[j] = the lane i that π moves to position j.
const PI_INV = Array.from({ length: 25 }, (_, j) => PI.indexOf(j));

/** The instructions that differ between 64-bit scalar lanes and i64x2 vectors. */
interface Flavor {
  type: number;
  xor: number[];
  /** local x := rotl(local x, r) (r in 1..63) */
  rotlInPlace(x: number, r: number): number[];
  /** stack: b0, b1, b2 (given as locals) → b0 ^ (~b1 & b2) */
  chi(b0: number, b1: number, b2: number): number[];
  /** pushes RC[round] for the round counter local `rn` */
  rcAt(rn: number, plus?: number): number[];
  rc(r: number): number[];
}

const scalar: Flavor = {
  type: I64,
  xor: [op.i64_xor],
  rotlInPlace: (x, r) => [...get(x), ...i64c(BigInt(r)), op.i64_rotl, ...set(x)],
  chi: (b0, b1, b2) => [...get(b0), ...get(b1), ...i64c(-1n), op.i64_xor, ...get(b2), op.i64_and, op.i64_xor],
  rcAt: (rn, plus = 0) => [...get(rn), ...i32c(3), op.i32_shl, op.i64_load, ...memarg(3, RCT + plus)],
  rc: (r) => i64c(RC[r]!),
};

const vector: Flavor = {
  type: V128,
  xor: vop.xor,
  rotlInPlace: (x, r) => [...get(x), ...i32c(r), ...vop.i64x2_shl, ...get(x), ...i32c(64 - r), ...vop.i64x2_shr_u, ...vop.or, ...set(x)],
  // v128.andnot(a, b) = a & ~b
  chi: (b0, b1, b2) => [...get(b0), ...get(b2), ...get(b1), ...vop.andnot, ...vop.xor],
  rcAt: (rn, plus = 0) => [...get(rn), ...i32c(3), op.i32_shl, ...vop.load64_splat, ...memarg(3, RCT + plus)],
  rc: (r) => [...i64c(RC[r]!), ...vop.i64x2_splat],
};

/** θ: column parities c, then d[x] = c[x−1] ^ rotl(c[x+1], 1) (the rotated copy goes through d[x]). */
function theta(F: Flavor, L: Locals, src: number[]): number[] {
  const out: number[] = [];
  for (let x = 0; x < 5; x++) {
    out.push(...get(src[x]!));
    for (let y = 1; y < 5; y++) out.push(...get(src[x + 5 * y]!), ...F.xor);
    out.push(...set(L.c[x]!));
  }
  for (let x = 0; x < 5; x++) {
    out.push(...get(L.c[(x + 1) % 5]!), ...set(L.d[x]!), ...F.rotlInPlace(L.d[x]!, 1));
    out.push(...get(L.d[x]!), ...get(L.c[(x + 4) % 5]!), ...F.xor, ...set(L.d[x]!));
  }
  return out;
}

/** ρ and π for the lane that lands at position j, into the row temporary b[j % 5]. */
function rhoPi(F: Flavor, L: Locals, src: number[], j: number): number[] {
  const i = PI_INV[j]!;
  const dst = L.b[j % 5]!;
  const out = [...get(src[i]!), ...get(L.d[i % 5]!), ...F.xor, ...set(dst)];
  if (RHO[i]) out.push(...F.rotlInPlace(dst, RHO[i]!));
  return out;
}

/** χ for output lane x of the current row, left on the stack: b[x] ^ (~b[x+1] & b[x+2]). */
function chiValue(F: Flavor, L: Locals, x: number): number[] {
  return F.chi(L.b[x]!, L.b[(x + 1) % 5]!, L.b[(x + 2) % 5]!);
}

/**
 * One round from the lanes `src` into the lanes `dst`, row by row: the five ρπ values of a row are
 * computed just before χ consumes them, so only five temporaries are live (fewer spills than a full
 * 25-lane b array); `iota` pushes the round constant.
 */
function round(F: Flavor, L: Locals, src: number[], dst: number[], iota: number[]): number[] {
  const out = theta(F, L, src);
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 5; x++) out.push(...rhoPi(F, L, src, x + 5 * y));
    for (let x = 0; x < 5; x++) {
      out.push(...chiValue(F, L, x));
      if (x + y === 0) out.push(...iota, ...F.xor);
      out.push(...set(dst[x + 5 * y]!));
    }
  }
  return out;
}

/**
 * Rounds [first, last) as a loop over the round counter local `rn`, constants read from RCT. A loop, not
 * straight-line copies: the fully unrolled function is large enough that Bun's WebAssembly tiers compile
 * it worse, and two rounds per iteration was also slower (figures in docs/PERFORMANCE.md).
 */
function roundLoop(F: Flavor, L: Locals, rn: number, first: number, last: number): number[] {
  if ((last - first) % 2) throw new Error("the round loop runs an even number of rounds (a → e → a)");
  return [
    ...i32c(first), ...set(rn), op.loop, VOID,
    ...round(F, L, L.a, L.e, F.rcAt(rn)),
    ...round(F, L, L.e, L.a, F.rcAt(rn, 8)),
    ...get(rn), ...i32c(2), op.i32_add, ...tee(rn), ...i32c(last), op.i32_lt_s, op.br_if, 0, op.end,
  ];
}

function absorbFn(): FuncDef {
  // params: ptr (0), nblocks (1); locals: round counter (2), then the lanes
  const RN = 2;
  const L = lanes(3);
  const body: number[] = [];
  for (let i = 0; i < 25; i++) body.push(...i64c(0n), ...set(L.a[i]!));
  body.push(op.block, VOID, ...get(1), op.i32_eqz, op.br_if, 0, op.loop, VOID);
  for (let i = 0; i < RATE / 8; i++) body.push(...get(L.a[i]!), ...get(0), op.i64_load, ...memarg(3, 8 * i), op.i64_xor, ...set(L.a[i]!));
  body.push(...roundLoop(scalar, L, RN, FIRST_ROUND, 23), ...round(scalar, L, L.a, L.e, scalar.rc(23)));
  for (let i = 0; i < 25; i++) body.push(...get(L.e[i]!), ...set(L.a[i]!));
  body.push(...get(0), ...i32c(RATE), op.i32_add, ...set(0));
  body.push(...get(1), ...i32c(1), op.i32_sub, ...tee(1), op.br_if, 0, op.end, op.end);
  for (let i = 0; i < 4; i++) body.push(...i32c(0), ...get(L.a[i]!), op.i64_store, ...memarg(3, STATE + 8 * i));
  return { params: [I32, I32], results: [], locals: [I32, ...Array(LANE_LOCALS).fill(I64)], body, export: "absorb" };
}

/**
 * Odometer for one candidate of BLOCK2 (`half` 0 = A, 8 = B): increments its `len` ASCII digits starting
 * at block byte p, carrying leftwards, never past digit p. Byte q of a candidate sits at
 * BLOCK2 + 16·(q >> 3) + half + (q & 7).
 */
function odometer(half: number, P: number, LEN: number, IDX: number, ADDR: number, CH: number): number[] {
  const addr = [...get(IDX), ...i32c(3), op.i32_shr_u, ...i32c(4), op.i32_shl, ...get(IDX), ...i32c(7), op.i32_and, op.i32_add, ...set(ADDR)];
  return [
    ...get(P), ...get(LEN), op.i32_add, ...i32c(1), op.i32_sub, ...set(IDX),
    op.block, VOID, op.loop, VOID, // $carried (depth 1), $carry (depth 0)
    ...addr,
    ...get(ADDR), op.i32_load8_u, ...memarg(0, BLOCK2 + half), ...tee(CH), ...i32c(57), op.i32_eq,
    op.if, VOID, // a '9' becomes '0' and the carry moves left
    ...get(ADDR), ...i32c(48), op.i32_store8, ...memarg(0, BLOCK2 + half),
    ...get(IDX), ...i32c(1), op.i32_sub, ...tee(IDX), ...get(P), op.i32_ge_s, op.br_if, 1, // → $carry
    op.else,
    ...get(ADDR), ...get(CH), ...i32c(1), op.i32_add, op.i32_store8, ...memarg(0, BLOCK2 + half),
    op.end, op.br, 1, op.end, op.end, // if; br $carried; loop; block
  ];
}

function searchFn(): FuncDef {
  // params: p (0), len (1), count (2); locals: k, idx, addr, ch, round counter (i32), target (v128), lanes (v128)
  const [P, LEN, COUNT, K, IDX, ADDR, CH, RN, T] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const L = lanes(9);
  const F = vector;
  const body: number[] = [];
  body.push(...i32c(0), ...vop.load64_splat, ...memarg(3, TARGET), ...set(T));
  body.push(op.block, VOID, ...get(COUNT), ...i32c(1), op.i32_lt_s, op.br_if, 0, op.loop, VOID); // $done (1), $cand (0)
  // Fresh single-block states: lanes 0..16 from BLOCK2, the capacity lanes zero.
  for (let i = 0; i < 25; i++) {
    if (i < RATE / 8) body.push(...i32c(0), ...vop.load, ...memarg(4, BLOCK2 + 16 * i));
    else body.push(...i64c(0n), ...vop.i64x2_splat);
    body.push(...set(L.a[i]!));
  }
  body.push(...roundLoop(F, L, RN, FIRST_ROUND, 23));
  // Round 23 only as far as output lane 0 goes: θ, the three lanes χ reads for it, χ, ι.
  body.push(...theta(F, L, L.a));
  for (const j of [0, 1, 2]) body.push(...rhoPi(F, L, L.a, j));
  body.push(...chiValue(F, L, 0), ...F.rc(23), ...F.xor, ...get(T), ...vop.i64x2_eq, ...vop.any_true);
  body.push(op.if, VOID, ...get(K), op.return, op.end);
  body.push(...get(K), ...i32c(1), op.i32_add, ...tee(K), ...get(COUNT), op.i32_ge_s, op.br_if, 1);
  body.push(...odometer(0, P, LEN, IDX, ADDR, CH), ...odometer(8, P, LEN, IDX, ADDR, CH));
  body.push(op.br, 0, op.end, op.end); // br $cand; loop; block
  body.push(...i32c(-1));
  return {
    params: [I32, I32, I32],
    results: [I32],
    locals: [I32, I32, I32, I32, I32, V128, ...Array(LANE_LOCALS).fill(V128)],
    body,
    export: "search",
  };
}

function rcTable(): Uint8Array {
  const t = new DataView(new ArrayBuffer(8 * RC.length));
  RC.forEach((v, i) => t.setBigUint64(8 * i, v, true));
  return new Uint8Array(t.buffer);
}

/** The module's bytes (a few KB). */
export function keccakWasmBytes(): Uint8Array<ArrayBuffer> {
  return encodeModule([absorbFn(), searchFn()], 1, [{ offset: RCT, bytes: rcTable() }]);
}
