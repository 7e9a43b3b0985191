// Default call ids (decisions.md 0.2): `call_` + 24 lower-case hex characters of CSPRNG output, drawn from a
// pool that is refilled in batches.
import { describe, expect, test } from "bun:test";
import { newCallId, pooledHex } from "../../../src/pipeline/svcml/call-id";

describe("call ids", () => {
  test("have the documented shape and do not repeat across many pool refills", () => {
    const seen = new Set<string>();
    for (let k = 0; k < 5000; k++) {
      const id = newCallId();
      expect(id).toMatch(/^call_[0-9a-f]{24}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(5000);
  });

  test("hex runs of any even length, also larger than what is left in the pool", () => {
    for (const n of [2, 24, 1000, 8192]) expect(pooledHex(n)).toMatch(new RegExp(`^[0-9a-f]{${n}}$`));
    expect(() => pooledHex(8194)).toThrow(RangeError);
  });

  test("uses every hex digit (the output is not stuck on part of the alphabet)", () => {
    const all = pooledHex(4000);
    expect(new Set(all).size).toBe(16);
  });
});
