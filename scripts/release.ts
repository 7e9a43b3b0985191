// bun run release → dist/release/: the gateway compiled for every supported platform, named
// svc-gateway-<version>-<target>[.exe], with SHA256SUMS (sha256sum -c format). Each target's bun runtime comes
// from the npm registry (scripts/bun-runtime.ts). `--targets linux-x64,linux-arm64` (or SVC_RELEASE_TARGETS)
// builds a subset.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { bunRuntime, type RuntimeSpec } from "./bun-runtime";
import { compileGateway, VERSION } from "./compile";

export interface ReleaseTarget extends RuntimeSpec {
  name: string;
  compileTarget: Bun.Build.CompileTarget;
  exe: string;
}

export const TARGETS: ReleaseTarget[] = [
  { name: "linux-x64", compileTarget: "bun-linux-x64", pkg: "@oven/bun-linux-x64", bin: "bin/bun", exe: "" },
  { name: "linux-x64-musl", compileTarget: "bun-linux-x64-musl", pkg: "@oven/bun-linux-x64-musl", bin: "bin/bun", exe: "" },
  { name: "linux-arm64", compileTarget: "bun-linux-arm64", pkg: "@oven/bun-linux-aarch64", bin: "bin/bun", exe: "" },
  { name: "darwin-arm64", compileTarget: "bun-darwin-arm64", pkg: "@oven/bun-darwin-aarch64", bin: "bin/bun", exe: "" },
  { name: "darwin-x64", compileTarget: "bun-darwin-x64", pkg: "@oven/bun-darwin-x64", bin: "bin/bun", exe: "" },
  { name: "windows-x64", compileTarget: "bun-windows-x64", pkg: "@oven/bun-windows-x64", bin: "bin/bun.exe", exe: ".exe" },
];

export const releaseName = (t: ReleaseTarget) => `svc-gateway-${VERSION}-${t.name}${t.exe}`;

export async function release(opts: { outDir: string; targets: ReleaseTarget[]; log?: (line: string) => void }): Promise<string[]> {
  const log = opts.log ?? (() => {});
  mkdirSync(opts.outDir, { recursive: true });
  // Only our own files go: the folder may be one the operator chose (SVC_RELEASE_DIR).
  for (const f of readdirSync(opts.outDir)) if (f.startsWith("svc-gateway-") || f === "SHA256SUMS") rmSync(join(opts.outDir, f), { force: true });
  const names: string[] = [];
  for (const t of opts.targets) {
    const executablePath = await bunRuntime(t, Bun.version);
    const name = releaseName(t);
    await compileGateway({ outfile: join(opts.outDir, name), target: t.compileTarget, executablePath });
    names.push(name);
    log(`built ${name}`);
  }
  const sums = names.map((n) => `${createHash("sha256").update(readFileSync(join(opts.outDir, n))).digest("hex")}  ${n}`);
  writeFileSync(join(opts.outDir, "SHA256SUMS"), sums.join("\n") + "\n");
  return names;
}

export function selectTargets(list: string | undefined): ReleaseTarget[] {
  if (!list) return TARGETS;
  const wanted = list.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = wanted.filter((w) => !TARGETS.some((t) => t.name === w));
  if (unknown.length) throw new Error(`unknown target(s) ${unknown.join(", ")}; known: ${TARGETS.map((t) => t.name).join(", ")}`);
  return TARGETS.filter((t) => wanted.includes(t.name));
}

if (import.meta.main) {
  const i = process.argv.indexOf("--targets");
  const list = i > 0 ? process.argv[i + 1] : process.env.SVC_RELEASE_TARGETS;
  const outDir = process.env.SVC_RELEASE_DIR ?? resolve(import.meta.dir, "../dist/release");
  try {
    const names = await release({ outDir, targets: selectTargets(list), log: (l) => console.log(l) });
    console.log(`${names.length} binaries and SHA256SUMS in ${outDir}`);
  } catch (e) {
    console.error(`release failed: ${(e as Error).message}`);
    for (const l of (e as AggregateError).errors ?? []) console.error(l);
    process.exit(1);
  }
}
