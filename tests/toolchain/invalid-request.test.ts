// Issue 34 (~58 hand-built 400s in 3 spellings): a business or admin 400 `invalid_request` is built by
// util/invalid-request.ts alone, so its status, code and param travel one way. Read from the source text: a
// module that spells the error itself again (`new GatewayError(400, "invalid_request"`, or a local `bad` helper
// doing so) fails here.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");

/** Where the spelling stays, each with its reason. */
const ALLOWED = new Set([
  "src/util/invalid-request.ts", // the builder itself
  "src/http/body-deadline.ts", // a transport 400 that also closes the connection (Connection: close), not a field refused
]);

const SPELLED = /GatewayError\(\s*400\s*,\s*"invalid_request"/;

function spellers(): string[] {
  const out: string[] = [];
  for (const rel of new Bun.Glob("src/**/*.{ts,tsx}").scanSync({ cwd: ROOT })) {
    if (SPELLED.test(readFileSync(join(ROOT, rel), "utf8"))) out.push(rel);
  }
  return out.sort();
}

describe("400 invalid_request", () => {
  test("the pattern catches the spellings it is meant to", () => {
    expect(SPELLED.test(`throw new GatewayError(400, "invalid_request", "x");`)).toBe(true);
    expect(SPELLED.test(`const bad = (m: string) => new GatewayError(400, "invalid_request", m);`)).toBe(true);
    expect(SPELLED.test(`throw invalidRequest("x", "model");`)).toBe(false);
  });

  test("is built only by util/invalid-request.ts", () => {
    expect(spellers().filter((f) => !ALLOWED.has(f))).toEqual([]);
  });

  test("every allowed place still spells it (one that no longer does is taken off the list)", () => {
    expect(spellers().filter((f) => ALLOWED.has(f))).toEqual([...ALLOWED].sort());
  });
});
