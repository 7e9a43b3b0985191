// Reads an executable's format from its headers: ELF (machine, interpreter), Mach-O 64 (CPU type), PE32+ (machine).
// Enough to tell that a release file is what its name says, without running it.
import { readFileSync } from "node:fs";

export type ExeFormat =
  | { kind: "elf"; machine: "x86-64" | "aarch64" | string; interpreter: string }
  | { kind: "macho"; cpu: "x86_64" | "arm64" | string }
  | { kind: "pe"; machine: "x86-64" | string; pe32plus: boolean }
  | { kind: "unknown" };

const ELF_MACHINES: Record<number, string> = { 0x3e: "x86-64", 0xb7: "aarch64" };
const MACHO_CPUS: Record<number, string> = { 0x01000007: "x86_64", 0x0100000c: "arm64" };

export function exeFormat(path: string): ExeFormat {
  const b = readFileSync(path);
  if (b.readUInt32BE(0) === 0x7f454c46) {
    // 64-bit little-endian only: every Linux target here is.
    if (b[4] !== 2 || b[5] !== 1) return { kind: "elf", machine: "not 64-bit little-endian", interpreter: "" };
    const machine = ELF_MACHINES[b.readUInt16LE(18)] ?? `0x${b.readUInt16LE(18).toString(16)}`;
    const phoff = Number(b.readBigUInt64LE(32));
    const phentsize = b.readUInt16LE(54);
    const phnum = b.readUInt16LE(56);
    let interpreter = "";
    for (let i = 0; i < phnum; i++) {
      const ph = phoff + i * phentsize;
      if (b.readUInt32LE(ph) !== 3) continue; // PT_INTERP
      const off = Number(b.readBigUInt64LE(ph + 8));
      const size = Number(b.readBigUInt64LE(ph + 32));
      interpreter = b.subarray(off, off + size).toString("latin1").replace(/\0+$/, "");
    }
    return { kind: "elf", machine, interpreter };
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return { kind: "macho", cpu: MACHO_CPUS[cpu] ?? `0x${cpu.toString(16)}` };
  }
  if (b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    if (b.toString("latin1", pe, pe + 4) !== "PE\0\0") return { kind: "unknown" };
    const machine = b.readUInt16LE(pe + 4);
    const optionalMagic = b.readUInt16LE(pe + 24);
    return { kind: "pe", machine: machine === 0x8664 ? "x86-64" : `0x${machine.toString(16)}`, pe32plus: optionalMagic === 0x20b };
  }
  return { kind: "unknown" };
}
