// What a start loads (issue 35): the code the server's start evaluates is the static import closure of the chunk
// that holds src/cli/serve.ts, in the bundle the binary is compiled from (scripts/compile.ts: ESM, splitting, an
// `await import()` per lazily loaded part). This test bundles src/ the same way, unminified so that every module
// keeps its `// path` marker, and checks that the parts a start leaves for later stay out of that closure: a
// static import added by accident would put them back on every start without any test failing otherwise.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BUILD_PLUGINS } from "../../scripts/compile";
import { SCHEMA_MODULES } from "../../scripts/schema-literals";
import { scratchDir } from "../helpers/scratch";

const ROOT = resolve(import.meta.dir, "../..");

interface Chunk {
  text: string;
  imports: string[];
}

async function bundleChunks(): Promise<Map<string, Chunk>> {
  const outdir = scratchDir("svc-start-path-");
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const r = await Bun.build({
      entrypoints: ["./src/main.ts"],
      target: "bun",
      format: "esm",
      splitting: true,
      minify: false,
      outdir,
      plugins: BUILD_PLUGINS,
      define: { SVC_BUILD_VERSION: '"0.0.0-test"', "process.env.NODE_ENV": '"production"', SVC_CONSOLE_JS: '""', SVC_CONSOLE_CSS: '""' },
    });
    if (!r.success) throw new AggregateError(r.logs, "bundle failed");
    const chunks = new Map<string, Chunk>();
    for (const o of r.outputs) {
      const name = o.path.slice(outdir.length + 1);
      const text = readFileSync(join(outdir, name), "utf8");
      // Static imports only (an `await import("./chunk")` is a call, not a statement at the start of a line).
      const imports = [...text.matchAll(/^import\s[^;]*?["']\.\/([^"']+)["'];?$/gms)].map((m) => m[1]!);
      chunks.set(name, { text, imports });
    }
    return chunks;
  } finally {
    process.chdir(cwd);
  }
}

/** The modules (their `// path` markers) and the built-ins a chunk and everything it statically imports hold. */
function closure(chunks: Map<string, Chunk>, from: string): { modules: Set<string>; builtins: Set<string> } {
  const seen = new Set<string>();
  const modules = new Set<string>();
  const builtins = new Set<string>();
  const walk = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const chunk = chunks.get(name)!;
    for (const m of chunk.text.matchAll(/^\/\/ (\S+\.(?:ts|tsx|js|mjs|cjs|json))$/gm)) modules.add(m[1]!.replace(/^(\.\.\/)+[^/]+\/node_modules\//, "node_modules/"));
    for (const m of chunk.text.matchAll(/^import\s[^;]*?["']((?:node:|bun:)?[a-z_/]+)["'];?$/gms)) if (!m[1]!.startsWith(".")) builtins.add(m[1]!);
    for (const i of chunk.imports) walk(i);
  };
  walk(from);
  return { modules, builtins };
}

/** Each module's text in the bundle, by its `// path` marker (a module's code runs up to the next marker). */
function moduleTexts(chunks: Map<string, Chunk>): Map<string, string> {
  const texts = new Map<string, string>();
  for (const { text } of chunks.values()) {
    const parts = text.split(/^\/\/ (\S+\.(?:ts|tsx|js|mjs|cjs|json))$/m);
    for (let i = 1; i < parts.length; i += 2) texts.set(parts[i]!, parts[i + 1]!);
  }
  return texts;
}

describe("what a server start loads", async () => {
  const chunks = await bundleChunks();
  const serveChunk = [...chunks].find(([, c]) => /^\/\/ src\/cli\/serve\.ts$/m.test(c.text))?.[0];
  const start = serveChunk ? closure(chunks, serveChunk) : { modules: new Set<string>(), builtins: new Set<string>() };
  const loaded = (pattern: RegExp) => [...start.modules].filter((m) => pattern.test(m));

  test("the bundle has the server's chunk, and it holds what a start needs", () => {
    expect(serveChunk).toBeDefined();
    for (const m of ["src/server.ts", "src/app.ts", "src/surfaces/register.ts", "src/config/load.ts"]) expect(start.modules.has(m)).toBe(true);
  });

  test("the request-body and configuration schemas a start evaluates are literals built at build time (scripts/schema-literals.ts)", () => {
    const texts = moduleTexts(chunks);
    for (const m of SCHEMA_MODULES) {
      expect(start.modules.has(m)).toBe(true);
      // No TypeBox builder call left (Type.Object(…), t.Optional(…)): the module is its exports' literals.
      expect(texts.get(m)).not.toMatch(/\b(Type|t)\.[A-Z]\w*\(/);
      expect(texts.get(m)).toContain('Symbol.for("TypeBox.Kind")');
    }
  });

  test("the console's assets load with the first page that needs them (console/routes.ts)", () => {
    expect(loaded(/^src\/console\/(assets|bundle)\.ts$/)).toEqual([]);
  });

  test("the admin API and console are imported on the first /admin request (app.ts)", () => {
    expect(loaded(/^src\/surfaces\/admin-register\.ts$|^src\/surfaces\/admin\/[a-z-]+-routes\.ts$/)).toEqual([]);
  });

  test("the Redis backend is imported only when Redis is configured (shared-state/backend.ts)", () => {
    expect(loaded(/^src\/shared-state\/redis/)).toEqual([]);
  });

  test("the admin JWT code (jwt.ts, @elysiajs/jwt, jose) is imported with the first token to sign or check (http/admin-auth.ts)", () => {
    expect(loaded(/^src\/http\/jwt\.ts$|^node_modules\/(jose|@elysiajs\/jwt)\//)).toEqual([]);
  });

  test("the simulator, the OpenAPI generator and the public answer schemas load when first needed", () => {
    expect(loaded(/^src\/sim\/|^src\/http\/openapi\.ts$|^src\/surfaces\/public-answers\.ts$|^node_modules\/zod\//)).toEqual([]);
  });

  test("no built-in a start does without: bun:sqlite (the request log opens on first use), node:fs/promises, bun:ffi, node:os (util/host.ts)", () => {
    expect([...start.builtins].filter((b) => /sqlite|fs\/promises|ffi|^(node:)?os$/.test(b))).toEqual([]);
  });
});
