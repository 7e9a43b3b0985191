// One compile of the gateway into a self-contained executable, shared by `bun run build` (host) and
// `bun run release` (every target). The compiled binary never auto-loads a stray .env, bunfig.toml,
// tsconfig.json or package.json from the directory it is started in.
import pkg from "../package.json" with { type: "json" };
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

export interface CompileOptions {
  outfile: string;
  /** A Bun compile target (bun-linux-arm64, ...); the host when absent. */
  target?: Bun.Build.CompileTarget;
  /** The target's bun runtime: Bun downloads it otherwise, and only the npm registry is reachable here. */
  executablePath?: string;
}

export async function compileGateway(opts: CompileOptions): Promise<void> {
  // Worker entrypoints must be listed so that `new Worker(new URL(...))` resolves inside the binary.
  const workers = ["src/core/pow/worker.ts"].map((p) => join(ROOT, p)).filter((p) => existsSync(p));
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src/main.ts"), ...workers],
    root: ROOT,
    target: "bun",
    minify: true,
    sourcemap: "none",
    define: {
      SVC_BUILD_VERSION: JSON.stringify(pkg.version),
      "process.env.NODE_ENV": JSON.stringify("production"),
    },
    compile: {
      outfile: opts.outfile,
      ...(opts.target ? { target: opts.target } : {}),
      ...(opts.executablePath ? { executablePath: opts.executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
    },
  });
  if (!result.success) throw new AggregateError(result.logs, `compile failed${opts.target ? ` for ${opts.target}` : ""}`);
}

export const VERSION = pkg.version;
