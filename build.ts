// bun run build → dist/svc-gateway: one self-contained executable for this machine (bun build --compile) with
// the version embedded and production defines. `bun run release` builds every target (scripts/release.ts).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { compileGateway, VERSION } from "./scripts/compile";

const outfile = process.env.SVC_BUILD_OUTFILE ?? "dist/svc-gateway";
mkdirSync(dirname(outfile), { recursive: true });
try {
  await compileGateway({ outfile });
} catch (e) {
  for (const log of (e as AggregateError).errors ?? [e]) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile} (svc-gateway ${VERSION})`);
