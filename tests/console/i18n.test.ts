// Every English text the console passes to t() has a Chinese translation with the same placeholders.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ZH } from "../../src/console/ui/zh";

const UI = resolve(import.meta.dir, "../../src/console/ui");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && e.name !== "zh.ts" ? [join(dir, e.name)] : []));
}

/** t("…") calls plus the label/title/hint strings of the page tables, which are passed to t() later. */
function texts(): Set<string> {
  const out = new Set<string>();
  for (const file of sources(UI)) {
    const src = readFileSync(file, "utf8");
    for (const m of src.matchAll(/\bt\(\s*"((?:[^"\\]|\\.)*)"/g)) out.add(JSON.parse(`"${m[1]}"`));
    for (const m of src.matchAll(/\b(?:label|title|hint): "((?:[^"\\]|\\.)*)"/g)) out.add(JSON.parse(`"${m[1]}"`));
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("console translations", () => {
  const all = texts();

  test("the scan finds the console's texts", () => {
    expect(all.size).toBeGreaterThan(150);
    expect(all.has("Sign in")).toBe(true);
  });

  test("every text has a Chinese translation", () => {
    const missing = [...all].filter((s) => !(s in ZH));
    expect(missing).toEqual([]);
  });

  test("translations keep the placeholders of the English text", () => {
    const wrong = Object.entries(ZH).filter(([en, zh]) => placeholders(en).join() !== placeholders(zh).join());
    expect(wrong).toEqual([]);
  });

  test("the status names used by the conversation badges are translated", () => {
    for (const s of ["streaming", "success", "error", "stopped", "ok", "untested", "login failed"]) expect(ZH[s]).toBeTruthy();
  });
});
