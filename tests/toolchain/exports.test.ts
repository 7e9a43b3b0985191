// Exports of src/ that nothing uses, or that only tests use (issue 34 item 6), read by export-usage.ts. An export
// no file imports and its own file does not use is dead code; one that only tests import, unused by its own file,
// is code kept for the tests (it belongs in tests/helpers/ or goes); a file of src/ that only tests import is the
// same at file level. An export used in its own file and imported only by a test is a unit under test: fine.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { isTestFile, readExportUsage, factsOf } from "./export-usage";

const ROOT = join(import.meta.dir, "../..");

/** Exports that stay although the rules above would flag them, each with its reason. */
const ALLOWED: { file: string; name: string; why: string }[] = [
  {
    file: "src/models/thinking.ts",
    name: "thinkingOverride",
    why: "the request-field reading the spec vectors name (thinking_override); resolveThinking uses the same switch",
  },
  { file: "src/pipeline/line-extract.ts", name: "extractLine", why: "the entry the spec's line vectors are written against (raw lines); production feeds parsed payloads" },
  { file: "src/core/http1/client.ts", name: "closeIdleConnections", why: "the socket client's keep-alive pool, observed and emptied by its tests between cases" },
  { file: "src/core/http1/client.ts", name: "idleConnectionCount", why: "as closeIdleConnections" },
];

const report = readExportUsage(ROOT);
const allowed = (file: string, name: string) => ALLOWED.some((a) => a.file === file && a.name === name);
const dead = report.exports.filter((e) => e.importers.length === 0 && !e.usedInOwnFile);
const testOnly = report.exports.filter((e) => e.importers.length > 0 && e.importers.every(isTestFile) && !e.usedInOwnFile);

describe("the export reader", () => {
  test("sees declarations, export lists, re-exports and every kind of import", () => {
    const src = [
      `import a, { b, c as d, type E } from "./x";`,
      `import * as ns from "./y";`,
      `export { f, g as h } from "./z";`,
      `export * from "./w";`,
      `export const one = 1, { two } = { two: 2 };`,
      `export function three() { return one; }`,
      `export default class Four {}`,
      `export interface Five {}`,
      `const six = 6;`,
      `export { six as seven };`,
      `type T = import("./v").Q.R;`,
      `const lazy = () => import("./u");`,
    ].join("\n");
    const f = factsOf("t.ts", src);
    expect([...f.exports].sort()).toEqual(["default", "f", "Five", "h", "one", "seven", "three", "two"].sort());
    expect(f.imports).toEqual([
      { spec: "./x", names: ["default", "b", "c", "E"] },
      { spec: "./y", names: ["*"] },
      { spec: "./z", names: ["f", "g"] },
      { spec: "./w", names: ["*"] },
      { spec: "./v", names: ["Q"] },
      { spec: "./u", names: ["*"] },
    ]);
    expect(f.identifiers.get("one")).toBe(2);
  });

  test("resolves every relative import", () => {
    expect(report.exports.length).toBeGreaterThan(500);
    expect(report.unresolved).toEqual([]);
  });
});

describe("exports of src/", () => {
  test("none is used nowhere", () => {
    expect(dead.filter((e) => !allowed(e.file, e.name)).map((e) => `${e.file}: ${e.name}`)).toEqual([]);
  });

  test("none exists only for tests", () => {
    const found = testOnly.filter((e) => !allowed(e.file, e.name)).map((e) => `${e.file}: ${e.name} (${e.importers.join(", ")})`);
    expect(found).toEqual([]);
  });

  test("no file of src/ is imported by tests alone", () => {
    const found = [...report.fileImporters].filter(([, by]) => by.length > 0 && by.every(isTestFile)).map(([f, by]) => `${f} (${by.join(", ")})`);
    expect(found).toEqual([]);
  });

  test("every allowed exception still happens (one that no longer does is taken off the list)", () => {
    for (const a of ALLOWED) expect({ ...a, flagged: [...dead, ...testOnly].some((e) => e.file === a.file && e.name === a.name) }).toEqual({ ...a, flagged: true });
  });
});
