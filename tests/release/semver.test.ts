import { describe, expect, test } from "bun:test";
import { compareVersions } from "../../src/release/semver";

describe("semantic-version precedence (D15.7)", () => {
  test("the SemVer 2.0.0 example chain is strictly increasing", () => {
    const chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"];
    for (let i = 0; i + 1 < chain.length; i++) {
      expect(compareVersions(chain[i]!, chain[i + 1]!)).toBe(-1);
      expect(compareVersions(chain[i + 1]!, chain[i]!)).toBe(1);
    }
  });

  test.each([
    ["v1.2.0", "1.10.0", -1],
    ["v1.0.0", "1.0.0", 0],
    ["1.0.0+build.5", "1.0.0+other", 0],
    ["1.0.0-rc.1+b", "1.0.0-rc.1", 0],
    ["1.0.0-rc.1", "1.0.0", -1],
    ["0.2.0", "0.1.9", 1],
    ["10.0.0", "9.99.99", 1],
    ["1.0.0-2", "1.0.0-10", -1],
    ["1.0.0-1", "1.0.0-a", -1],
    ["1.0.0-a.b", "1.0.0-a", 1],
    ["99999999999999999999.0.0", "99999999999999999998.0.0", 1],
  ] as const)("%s vs %s → %d", (a, b, want) => {
    expect(compareVersions(a, b)).toBe(want);
  });

  test.each(["latest", "1.2", "1.2.3.4", "01.2.3", "1.2.3-", "1.2.3-a..b", "1.2.3-01", "", "v", "1.2.3+"])(
    "%p does not parse, so the comparison is null",
    (bad) => {
      expect(compareVersions(bad, "1.0.0")).toBeNull();
      expect(compareVersions("1.0.0", bad)).toBeNull();
    },
  );
});
