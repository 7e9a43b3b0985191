// One compile of the gateway into a self-contained executable, shared by `bun run build` (host) and
// `bun run release` (every target). The compiled binary never auto-loads a stray .env, bunfig.toml,
// tsconfig.json or package.json from the directory it is started in.
import pkg from "../package.json" with { type: "json" };
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { bundleConsole } from "../src/console/bundle";
import { schemaLiterals } from "./schema-literals";

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
  // Paths relative to the project root, as the worker's `new URL(...)` is resolved against the bundle's layout.
  const workers = ["./src/core/pow/worker.ts", "./src/metering/request-log-worker.ts"].filter((p) => existsSync(join(ROOT, p)));
  const outfile = resolve(opts.outfile);
  // The bundle's layout (and so the worker's path inside the binary) follows the working directory.
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    return await compileIn({ ...opts, outfile }, workers);
  } finally {
    process.chdir(cwd);
  }
}

async function compileIn(opts: CompileOptions, workers: string[]): Promise<void> {
  // The admin console (src/console/ui) is bundled first and embedded as two string constants (console/assets.ts).
  const consoleBundle = await bundleConsole();
  const result = await Bun.build({
    entrypoints: ["./src/main.ts", ...workers],
    target: "bun",
    // Start-up (issue 35). Bytecode: the binary carries JavaScriptCore's compiled form of the bundle, so a start
    // skips parsing it (+6 MB on disk); with top-level await in src/main.ts it needs ESM. Splitting: each
    // `await import()` becomes a chunk of its own, loaded when that line runs, so the fetch-cap re-exec
    // (src/main.ts) happens before the server's code and the Node built-ins it imports are loaded, not after, and
    // the simulator (node:zlib) loads only in demo mode. Static imports of built-ins are hoisted to the top of
    // their chunk: put a costly one behind an `await import()` rather than at the top of a file the server loads.
    format: "esm",
    plugins: BUILD_PLUGINS,
    bytecode: true,
    splitting: true,
    minify: true,
    sourcemap: "none",
    define: {
      SVC_BUILD_VERSION: JSON.stringify(pkg.version),
      "process.env.NODE_ENV": JSON.stringify("production"),
      SVC_CONSOLE_JS: JSON.stringify(consoleBundle.js),
      SVC_CONSOLE_CSS: JSON.stringify(consoleBundle.css),
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

/**
 * prom-client's metric modules `require("util")` at load for their error messages only (util.format,
 * util.inspect), which loads node:util with every start (≈ 2-3 ms of a cold start, issue 35). In the binary
 * that line becomes an object whose two functions require node:util when an error is worded, and do what its
 * own do. Run from source, prom-client is unchanged.
 */
const LAZY_UTIL = "const util = { format: (...a) => require('util').format(...a), inspect: (...a) => require('util').inspect(...a) };";
export const promClientUtil: Bun.BunPlugin = {
  name: "prom-client-lazy-util",
  setup(build) {
    build.onLoad({ filter: /[\\/]prom-client[\\/]lib[\\/](counter|gauge|histogram|validation)\.js$/ }, async (args) => {
      const text = await Bun.file(args.path).text();
      const line = "const util = require('util');";
      if (!text.includes(line)) throw new Error(`${args.path}: prom-client changed, ${line} not found (scripts/compile.ts)`);
      return { contents: text.replace(line, LAZY_UTIL), loader: "js" };
    });
  },
};

/** The plugins of every compile; tests/toolchain/start-path.test.ts bundles src/ with the same list. */
export const BUILD_PLUGINS: Bun.BunPlugin[] = [promClientUtil, schemaLiterals];

export const VERSION = pkg.version;
