// The import graph of src/ against shared/ARCHITECTURE.md: "Dependencies point inward: surfaces → turn →
// pipeline/prompt/accounts → core; core/, pipeline/ and prompt/ import nothing from Elysia, http/, accounts/ or
// the context". Type-only imports count like any other: a type in the wrong folder is an arrow the wrong way.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { crossFolderCycles, readImportGraph, specifiersOf, type ImportEdge, type ImportGraph } from "./import-graph";

const SRC = join(import.meta.dir, "../../src");

/**
 * The layers, innermost first. A file may import its own layer or an inner one; an import of an outer layer is
 * against the layering. ARCHITECTURE.md names the spine (core → pipeline/prompt/accounts → turn → surfaces); the
 * other folders are placed where their imports and importers put them, each with its reason.
 */
const LAYERS: { units: string[]; why: string }[] = [
  { units: ["util", "version.ts"], why: "leaf helpers, the logger and the error type: importable from anywhere" },
  { units: ["core", "release"], why: "clients of outside protocols (core's wire, the release feed): plain functions" },
  { units: ["pipeline", "prompt"], why: "pure stages and prompt building over core's frames (peers: the cleaner knows the markers)" },
  { units: ["models"], why: "the catalog: speaks the pipeline's thinking types" },
  { units: ["config"], why: "schema and settings: validates model names and core's wire defaults" },
  { units: ["accounts", "store", "sim"], why: "the pool and the stores (ARCHITECTURE: beside pipeline/prompt, under turn); the simulator" },
  { units: ["metering"], why: "metrics, usage, quotas, audit, request log: read the request state, the accounts and the stores" },
  { units: ["shared-state"], why: "the shared-state backends (memory or Redis): implement the interfaces of accounts/, store/ and metering/" },
  { units: ["context.ts"], why: "the dependency bundle: names every service above, is handed to turn and the edge" },
  { units: ["turn"], why: "the turn runner: leases accounts, runs the pipeline" },
  { units: ["http"], why: "cross-cutting Elysia plugins: read the context for keys and settings" },
  { units: ["surfaces", "console", "doctor"], why: "routes and what only routes and the command line show" },
  { units: ["app.ts", "server.ts", "context-builder.ts", "metering-builder.ts", "main.ts", "cli"], why: "the composition root: builds and starts everything" },
];

/** ARCHITECTURE.md's second rule, stated for packages and folders beside the layer order. */
const PLAIN = ["core", "pipeline", "prompt"];
const NOT_FROM_PLAIN = ["elysia", "@elysiajs/", "http", "accounts", "context.ts"];

/** Imports against the layering that stay, with the reason. At most 3 (issue 34). */
const ALLOWED: { from: string; to: string; why: string }[] = [
  {
    from: "context.ts",
    to: "http/login-throttle.ts",
    why: "type only: the context carries the process's one admin login throttle (D5.9), a plain class the admin edge fills",
  },
  {
    from: "context.ts",
    to: "http/client-address.ts",
    why: "ctx.clientAddress() is the one place every log, throttle and usage row takes the client's address from (issue 33); the function is plain (util/cidr only), no Elysia",
  },
];

const MAX_AGAINST = 3;

function unitOf(file: string): string {
  const slash = file.indexOf("/");
  return slash < 0 ? file : file.slice(0, slash);
}

function rankOf(unit: string): number {
  const i = LAYERS.findIndex((l) => l.units.includes(unit));
  if (i < 0) throw new Error(`src/${unit} has no layer in tests/toolchain/imports.test.ts: place it and say why`);
  return i;
}

function against(graph: ImportGraph): { edge: ImportEdge; rule: string }[] {
  const out: { edge: ImportEdge; rule: string }[] = [];
  for (const edge of graph.edges) {
    const from = unitOf(edge.from);
    if (edge.to === null) {
      if (PLAIN.includes(from) && NOT_FROM_PLAIN.some((p) => edge.spec === p || (p.endsWith("/") && edge.spec.startsWith(p))))
        out.push({ edge, rule: `${from}/ imports nothing from ${edge.spec}` });
      continue;
    }
    if (!graph.files.includes(edge.to)) continue; // package.json and other data
    const to = unitOf(edge.to);
    if (from === to) continue;
    if (PLAIN.includes(from) && NOT_FROM_PLAIN.includes(to)) out.push({ edge, rule: `${from}/ imports nothing from ${to}` });
    else if (rankOf(to) > rankOf(from)) out.push({ edge, rule: `${from} (layer ${rankOf(from)}) imports outer ${to} (layer ${rankOf(to)})` });
  }
  return out;
}

const graph = readImportGraph(SRC);

describe("the import reader", () => {
  test("finds every kind of import and ignores comments and strings that only look like one", () => {
    const src = [
      `import { a, type B } from "./one";`,
      `import type {`,
      `  C,`,
      `  D as E,`,
      `} from "../two";`,
      `import * as ns from "./three";`,
      `import Def, { f } from "./four";`,
      `import "./five";`,
      `export { g } from "./six";`,
      `export * from "./seven";`,
      `export type { H } from "./eight";`,
      `const lazy = await import("./nine");`,
      `type T = typeof import("./ten");`,
      `// import { x } from "./commented";`,
      `/* export * from "./blocked"; */`,
      "const s = `import { y } from \"./templated\"`;",
      `const re = /"import z from '.\\/regex'"/;`,
      `const jsx = <p>don't import q from "./jsx-text"</p>;`,
      `import { last } from "./eleven";`,
    ].join("\n");
    expect(specifiersOf(src)).toEqual(["./one", "../two", "./three", "./four", "./five", "./six", "./seven", "./eight", "./nine", "./ten", "./jsx-text", "./eleven"]);
  });

  test("resolves every relative import of src/ to a file", () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.unresolved).toEqual([]);
  });

  test("finds a cycle across folders and names its path", () => {
    const fake: ImportGraph = {
      files: ["a/x.ts", "a/y.ts", "b/z.ts", "c/w.ts"],
      edges: [
        { from: "a/x.ts", spec: "../b/z", to: "b/z.ts" },
        { from: "b/z.ts", spec: "../a/y", to: "a/y.ts" },
        { from: "a/y.ts", spec: "./x", to: "a/x.ts" },
        { from: "c/w.ts", spec: "../a/x", to: "a/x.ts" },
      ],
      unresolved: [],
    };
    expect(crossFolderCycles(fake)).toEqual([["b/z.ts", "a/y.ts", "a/x.ts", "b/z.ts"]]);
  });
});

describe("src/ against shared/ARCHITECTURE.md", () => {
  test("every folder of src/ has a layer", () => {
    for (const f of graph.files) expect(() => rankOf(unitOf(f))).not.toThrow();
  });

  test("no import cycle between files of different folders", () => {
    expect(crossFolderCycles(graph).map((c) => c.join(" → "))).toEqual([]);
  });

  test(`at most ${MAX_AGAINST} imports against the layering, each listed with its reason`, () => {
    const found = against(graph);
    const listed = (e: ImportEdge) => ALLOWED.some((a) => a.from === e.from && a.to === (e.to ?? e.spec));
    const unlisted = found.filter((v) => !listed(v.edge)).map((v) => `${v.edge.from} → ${v.edge.to ?? v.edge.spec}: ${v.rule}`);
    expect(unlisted).toEqual([]);
    expect(found.length).toBeLessThanOrEqual(MAX_AGAINST);
    // An exception that no longer happens is taken off the list.
    for (const a of ALLOWED) expect(found.some((v) => v.edge.from === a.from && (v.edge.to ?? v.edge.spec) === a.to)).toBe(true);
  });
});
