// A tiny WebAssembly binary writer: just enough (LEB128, sections, the opcodes the Keccak module uses) to
// emit the HashV1 module at start-up from TypeScript. Emitting it at run time keeps the module's source
// readable and reviewable, needs no build step and no toolchain, and works unchanged inside workers and
// inside a `bun build --compile` binary.

export const I32 = 0x7f;
export const I64 = 0x7e;
export const V128 = 0x7b;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n; // arithmetic shift on bigint keeps the sign
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

/** Opcodes used by the module (names as in the WebAssembly text format). */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  br_if: 0x0d,
  return: 0x0f,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  i64_load: 0x29,
  i32_load8_u: 0x2d,
  i64_store: 0x37,
  i32_store8: 0x3a,
  i32_const: 0x41,
  i64_const: 0x42,
  i32_eqz: 0x45,
  i32_eq: 0x46,
  i32_lt_s: 0x48,
  i32_ge_s: 0x4e,
  i64_eq: 0x51,
  i32_add: 0x6a,
  i32_sub: 0x6b,
  i32_and: 0x71,
  i32_shl: 0x74,
  i32_shr_u: 0x76,
  i64_and: 0x83,
  i64_xor: 0x85,
  i64_rotl: 0x89,
} as const;

/** SIMD instructions: the 0xfd prefix, then the sub-opcode as unsigned LEB128. */
const simd = (n: number) => [0xfd, ...uleb(n)];
export const vop = {
  load: simd(0x00),
  load64_splat: simd(0x0a),
  i64x2_splat: simd(0x12),
  i64x2_extract_lane: simd(0x1d),
  and: simd(0x4e),
  andnot: simd(0x4f),
  or: simd(0x50),
  xor: simd(0x51),
  any_true: simd(0x53),
  i64x2_shl: simd(0xcb),
  i64x2_shr_u: simd(0xcd),
  i64x2_eq: simd(0xd6),
} as const;

/** Block type "no result" for block/loop/if. */
export const VOID = 0x40;

export interface FuncDef {
  params: number[];
  results: number[];
  /** Extra locals, in order after the params. */
  locals: number[];
  body: number[];
  export: string;
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, payload: number[]): number[] {
  return [id, ...uleb(payload.length), ...payload];
}

function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...uleb(b.length), ...b];
}

/** Bytes placed in memory at instantiation. */
export interface DataDef {
  offset: number;
  bytes: Uint8Array;
}

/** A module with one exported memory ("memory", `pages` of 64 KiB, growable), the given functions and data. */
export function encodeModule(funcs: FuncDef[], pages: number, data: DataDef[] = []): Uint8Array<ArrayBuffer> {
  const types = funcs.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  const typeSec = section(1, vec(types));
  const funcSec = section(3, vec(funcs.map((_, i) => uleb(i))));
  const memSec = section(5, vec([[0x00, ...uleb(pages)]]));
  const exports = [[...name("memory"), 0x02, 0x00], ...funcs.map((f, i) => [...name(f.export), 0x00, ...uleb(i)])];
  const exportSec = section(7, vec(exports));
  const bodies = funcs.map((f) => {
    // Run-length groups of identical local types.
    const groups: number[][] = [];
    for (const t of f.locals) {
      const last = groups[groups.length - 1];
      if (last && last[1] === t) last[0]!++;
      else groups.push([1, t]);
    }
    const code = [...vec(groups.map(([n, t]) => [...uleb(n!), t!])), ...f.body, op.end];
    return [...uleb(code.length), ...code];
  });
  const codeSec = section(10, vec(bodies));
  // Active segments for memory 0: flags 0, offset as a constant expression, then the bytes.
  const dataSec = section(11, vec(data.map((d) => [0x00, op.i32_const, ...sleb(BigInt(d.offset)), op.end, ...uleb(d.bytes.length), ...d.bytes])));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...typeSec, ...funcSec, ...memSec, ...exportSec, ...codeSec, ...dataSec]);
}
