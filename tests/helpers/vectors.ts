// Test vectors live next to the project root in ../shared/spec/vectors (never copied into the repo).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const VECTORS_DIR = resolve(import.meta.dir, "../../../shared/spec/vectors");

export function loadVectors<T = any>(name: string): T {
  return JSON.parse(readFileSync(join(VECTORS_DIR, name), "utf8")) as T;
}
