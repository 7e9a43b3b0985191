// bun run build → dist/svc-gateway: one self-contained executable (bun build --compile) with the
// version embedded and production defines. The compiled binary never auto-loads a stray .env,
// bunfig.toml, tsconfig.json or package.json from the directory it is started in.
import pkg from "./package.json" with { type: "json" };
import { existsSync, mkdirSync } from "node:fs";
import { bundleConsole } from "./src/console/bundle";

const outfile = process.env.SVC_BUILD_OUTFILE ?? "dist/svc-gateway";
mkdirSync("dist", { recursive: true });

// Worker entrypoints must be listed so that `new Worker(new URL(...))` resolves inside the binary.
const workers = ["src/core/pow/worker.ts"].filter((p) => existsSync(p));

// The admin console (src/console/ui) is bundled first and embedded as two string constants (console/assets.ts).
const consoleBundle = await bundleConsole();

const result = await Bun.build({
  entrypoints: ["src/main.ts", ...workers],
  target: "bun",
  minify: true,
  sourcemap: "none",
  define: {
    SVC_BUILD_VERSION: JSON.stringify(pkg.version),
    "process.env.NODE_ENV": JSON.stringify("production"),
    SVC_CONSOLE_JS: JSON.stringify(consoleBundle.js),
    SVC_CONSOLE_CSS: JSON.stringify(consoleBundle.css),
  },
  compile: {
    outfile,
    autoloadDotenv: false,
    autoloadBunfig: false,
    autoloadTsconfig: false,
    autoloadPackageJson: false,
  },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} (svc-gateway ${pkg.version})`);
