// Issue 32: an unknown model's error names the nearest known names and points to /v1/models.
import { describe, expect, test } from "bun:test";
import { editDistance, nearestModels } from "../../src/models/suggest";
import { resolveModel } from "../../src/models/resolve";

describe("nearest model names", () => {
  test("edit distance counts insertions, deletions and substitutions, and stops past the bound", () => {
    expect(editDistance("core-v4-flash", "core-v4-flash")).toBe(0);
    expect(editDistance("core-v4-flsh", "core-v4-flash")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("abc", "xyzxyzxyz", 2)).toBe(3);
  });

  test("a typo finds its model first; an unrelated name finds nothing", () => {
    expect(nearestModels("core-v4-flsh")[0]).toBe("core-v4-flash");
    expect(nearestModels("CORE-V4-PRO-SEARCHH")[0]).toBe("core-v4-pro-search");
    expect(nearestModels("totally-unrelated-name-xyz")).toEqual([]);
  });

  test("the operator's aliases are candidates too", () => {
    expect(nearestModels("my-teem-model", { "my-team-model": "core-v4-pro" })).toContain("my-team-model");
  });

  test("resolveModel's model_not_found message suggests the nearest names and /v1/models", () => {
    const r = resolveModel("core-v4-flsh");
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe("model_not_found");
    expect(r.message).toContain("Did you mean 'core-v4-flash'");
    expect(r.message).toContain("GET /v1/models");
    const far = resolveModel("zzzzzzzzzzzzzzzzzz");
    expect(!far.ok && far.message).toBe("The model 'zzzzzzzzzzzzzzzzzz' does not exist. GET /v1/models lists the models this gateway serves.");
  });
});
