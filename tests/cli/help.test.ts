// Issue 33 item 5: `--help` and `svc-gateway help` print the same text, and its Environment section names every
// variable of docs/configuration.md's table and nothing the table does not document.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HELP_TEXT } from "../../src/cli/help";
import { parseArgs } from "../../src/cli/args";

const ROOT = resolve(import.meta.dir, "../..");
const VAR = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\bPORT\b/g;

/** Variable names in the first column of configuration.md's "## Environment" table. */
function documentedVariables(): Set<string> {
  const md = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");
  const section = md.split(/^## Environment$/m)[1]!.split(/^## /m)[0]!;
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1] ?? "";
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

function helpVariables(text: string): Set<string> {
  const env = text.split(/^Environment.*:$/m)[1] ?? "";
  return new Set(env.match(VAR) ?? []);
}

describe("--help against docs/configuration.md", () => {
  test("the table is read (a broken parser must not make the comparison vacuous)", () => {
    const docs = documentedVariables();
    expect(docs.size).toBeGreaterThanOrEqual(20);
    for (const v of ["PORT", "SVC_HOST", "SVC_TRUSTED_PROXIES", "SVC_REDIS_PREFIX"]) expect(docs.has(v)).toBe(true);
  });

  test("every documented environment variable is in --help, and --help lists no other", () => {
    const docs = documentedVariables();
    const help = helpVariables(HELP_TEXT);
    expect([...docs].filter((v) => !help.has(v))).toEqual([]);
    expect([...help].filter((v) => !docs.has(v))).toEqual([]);
  });

  test("the binary's entry point prints that text for --help, -h and help", () => {
    for (const argv of [["--help"], ["-h"], ["help"]]) {
      const r = Bun.spawnSync(["bun", join(ROOT, "src/main.ts"), ...argv], { env: { PATH: process.env.PATH ?? "" } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.toString()).toBe(HELP_TEXT);
    }
    expect(parseArgs(["help"]).help).toBe(true);
    expect(() => parseArgs(["serve", "help"])).toThrow("unknown argument");
  });

  test("--help says where demo and sim listen", () => {
    expect(HELP_TEXT).toMatch(/demo[\s\S]*127\.0\.0\.1 unless --host or SVC_HOST/);
    expect(HELP_TEXT).toMatch(/sim [\s\S]*127\.0\.0\.1 unless --host or SVC_HOST/);
  });
});
