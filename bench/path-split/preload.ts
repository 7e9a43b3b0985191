// Preloaded into the gateway from source by bench/path-split.ts: with SVC_BENCH_CUT set, the chat route is the
// cut's (cuts.ts) instead of the gateway's. A runtime plugin renames the module's own chatRoutes and appends one
// that registers the cut on the same business edge — nothing in src/ knows about the bench.
import { plugin } from "bun";
import { join } from "node:path";

const cut = process.env.SVC_BENCH_CUT;
if (cut) {
  const cuts = join(import.meta.dir, "cuts.ts");
  plugin({
    name: "svc-bench-path-split",
    setup(build) {
      build.onLoad({ filter: /src\/surfaces\/chat\/routes\.ts$/ }, async ({ path }) => {
        const source = await Bun.file(path).text();
        if (!source.includes("export function chatRoutes(")) throw new Error("path-split: chatRoutes not found in " + path);
        const contents = `${source.replace("export function chatRoutes(", "function gatewayChatRoutes(")}
import { cutHandler as __cutHandler } from ${JSON.stringify(cuts)};
export function chatRoutes(app: BusinessApp, ctx: AppContext): void {
  const handler = __cutHandler(${JSON.stringify(cut)} as never, ctx);
  for (const base of ["/v1", ""]) app.post(\`\${base}/chat/completions\`, handler as never, { business: true, body: ChatBody });
}
void gatewayChatRoutes;
`;
        return { contents, loader: "ts" };
      });
    },
  });
}
