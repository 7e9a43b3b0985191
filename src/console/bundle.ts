// Bundles the console UI (src/console/ui/) for the browser with Bun's own bundler. build.ts calls it once and
// embeds the result in the binary as build-time defines; from source (`bun src/main.ts`, `bun test`) the
// console bundles itself on its first request (assets.ts), so there is no build step and no file beside the binary.
import { resolve } from "node:path";

export interface ConsoleBundle {
  js: string;
  css: string;
}

const ENTRY = resolve(import.meta.dir, "ui/main.tsx");

export async function bundleConsole(): Promise<ConsoleBundle> {
  const result = await Bun.build({
    entrypoints: [ENTRY],
    target: "browser",
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) throw new Error(`console bundle failed: ${result.logs.map(String).join("\n")}`);
  let js = "";
  let css = "";
  for (const out of result.outputs) {
    if (out.path.endsWith(".css")) css += await out.text();
    else if (out.kind === "entry-point") js += await out.text();
  }
  if (!js) throw new Error("console bundle produced no script");
  return { js, css };
}
