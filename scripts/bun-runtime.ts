// The bun runtime of a compile target, from the npm registry (@oven/bun-<os>-<arch>), cached under
// dist/.runtimes/. `bun build --compile --target` would download it from Bun's own release host, which this
// project's machines cannot reach; npm verifies the tarball against the registry's integrity hash.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const CACHE = resolve(import.meta.dir, "../dist/.runtimes");

export interface RuntimeSpec {
  /** npm package holding the runtime. */
  pkg: string;
  /** Path of the executable inside the package. */
  bin: string;
}

async function run(cmd: string[], cwd: string): Promise<string> {
  const p = Bun.spawn(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${cmd.join(" ")} failed (${code}): ${err.trim() || out.trim()}`);
  return out;
}

/** The runtime's executable for `bunVersion`, fetched once per version and package. */
export async function bunRuntime(spec: RuntimeSpec, bunVersion: string): Promise<string> {
  const dir = join(CACHE, `${spec.pkg.replace("/", "+")}@${bunVersion}`);
  const exe = join(dir, spec.bin);
  if (existsSync(exe)) return exe;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(CACHE, ".fetch-"));
  try {
    const tgz = (await run(["npm", "pack", "--silent", `${spec.pkg}@${bunVersion}`, "--pack-destination", work], work)).trim().split("\n").pop()!;
    await run(["tar", "xzf", join(work, tgz), "-C", work], work);
    // Renamed into place whole: an interrupted fetch never leaves a half-written runtime in the cache.
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, "package"), dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!existsSync(exe)) throw new Error(`${spec.pkg}@${bunVersion} holds no ${spec.bin}`);
  return exe;
}
