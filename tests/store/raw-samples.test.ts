import { describe, expect, test } from "bun:test";
import { defaultSampleId, sampleIdProblem, withoutCredentials } from "../../src/store/raw-samples";

describe("sample ids (D13.4)", () => {
  test("valid ids pass", () => {
    for (const id of ["a", "sample-1", "A.b_c-9", "x".repeat(64), "..a", "a.."]) expect(sampleIdProblem(id)).toBeNull();
  });

  test("ids that could name another directory are rejected", () => {
    for (const id of ["", ".", "..", "../a", "a/b", "a\\b", "/a", "x".repeat(65), "a b", "a\u0000b", "é", "a%2f"]) expect(sampleIdProblem(id)).not.toBeNull();
  });

  test("the default id has the D13.4 shape and is itself valid", () => {
    const id = defaultSampleId(Date.UTC(2026, 10, 22, 9, 30, 5));
    expect(id).toMatch(/^sample-20261122-093005-[0-9a-f]{6}$/);
    expect(sampleIdProblem(id)).toBeNull();
  });

  test("credential fields are removed at any depth", () => {
    expect(withoutCredentials({ model: "m", api_key: "k", nested: [{ Token: "t", keep: 1 }] })).toEqual({ model: "m", nested: [{ keep: 1 }] });
  });
});
