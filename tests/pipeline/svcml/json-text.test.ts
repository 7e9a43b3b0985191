// jsonOf must be JSON.stringify exactly; it only skips the native call for short plain strings and scalars.
import { expect, test } from "bun:test";
import { jsonOf } from "../../../src/pipeline/svcml/json-text";

test("jsonOf gives what JSON.stringify gives", () => {
  const values: unknown[] = [
    "", "path", "src/main.ts", 'say "hi"', "back\\slash", "tab\there", "line\nbreak", "\u0000", "\u001f", "\u007f",
    "é", "😀", "\ud83d", "\ude00", "a\ud83dz", "\u2028", "x".repeat(64), "x".repeat(65), `${"x".repeat(70)}"`,
    0, -0, -1.5, 1e21, 1e-7, 0.1 + 0.2, 5e-324, 2 ** 53 + 2, NaN, Infinity, -Infinity, true, false, null, undefined,
    [1, "a"], { k: "v" },
  ];
  for (const v of values) expect({ v, json: jsonOf(v) }).toEqual({ v, json: JSON.stringify(v) });
});
