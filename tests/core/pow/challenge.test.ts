// Validation of a challenge before any search (core-upstream §6.1), with one typed error per check.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { DEFAULT_DIFFICULTY, parseChallenge, PowChallengeError, type PowChallengeErrorCode } from "../../../src/core/pow/challenge";

const v = loadVectors("pow.json");
const base = { algorithm: "CoreHashV1", challenge: "a".repeat(64), salt: "s", expire_at: 1712345678, difficulty: 1000, signature: "sig", target_path: "/t" };

function refusal(raw: unknown, algorithm = "CoreHashV1"): PowChallengeErrorCode | "accepted" {
  try {
    parseChallenge(raw, algorithm);
    return "accepted";
  } catch (e) {
    if (!(e instanceof PowChallengeError)) throw e;
    return e.code;
  }
}

describe("challenge defaults", () => {
  test("difficulty defaults to 144000 and a missing signature becomes null", () => {
    const { difficulty: _d, signature: _s, ...raw } = base;
    const c = parseChallenge(raw, "CoreHashV1");
    expect(c.difficulty).toBe(144000);
    expect(DEFAULT_DIFFICULTY).toBe(v.defaults_when_fields_missing.difficulty);
    expect(c.signature).toBeNull();
  });
  test("hex is accepted in either case and copied as received", () => {
    const c = parseChallenge({ ...base, challenge: "Ab".repeat(32) }, "CoreHashV1");
    expect(c.challenge).toBe("Ab".repeat(32));
    expect([...Buffer.from(c.challenge, "hex")]).toEqual(Array(32).fill(0xab));
  });
  test("signature and target_path are copied untouched", () => {
    const c = parseChallenge({ ...base, signature: { opaque: [1, 2] } }, "CoreHashV1");
    expect(c.signature).toEqual({ opaque: [1, 2] });
    expect(c.target_path).toBe("/t");
  });
  test("the algorithm label is the configured one, whatever it is", () => {
    expect(parseChallenge({ ...base, algorithm: "OtherLabel" }, "OtherLabel").algorithm).toBe("OtherLabel");
  });
});

describe("challenge refusals", () => {
  const cases: [string, unknown, PowChallengeErrorCode][] = [
    ["not an object", "challenge", "not_object"],
    ["null", null, "not_object"],
    ["an array", [base], "not_object"],
    ["another algorithm label", { ...base, algorithm: "DeepHashV2" }, "bad_algorithm"],
    ["a missing algorithm", { ...base, algorithm: undefined }, "bad_algorithm"],
    ["the failure vector's challenge (not hex, wrong length)", { ...base, challenge: v.failure_vectors[1].challenge_hex }, "bad_challenge"],
    ["63 hex characters", { ...base, challenge: "a".repeat(63) }, "bad_challenge"],
    ["65 hex characters", { ...base, challenge: "a".repeat(65) }, "bad_challenge"],
    ["64 characters with a non-hex one", { ...base, challenge: "g" + "a".repeat(63) }, "bad_challenge"],
    ["a numeric challenge", { ...base, challenge: 1234 }, "bad_challenge"],
    ["no expire_at", { ...base, expire_at: undefined }, "bad_expire_at"],
    ["a fractional expire_at", { ...base, expire_at: 1712345678.5 }, "bad_expire_at"],
    ["a string expire_at", { ...base, expire_at: "1712345678" }, "bad_expire_at"],
    ["a zero difficulty", { ...base, difficulty: 0 }, "bad_difficulty"],
    ["a fractional difficulty", { ...base, difficulty: 1.5 }, "bad_difficulty"],
    ["a non-numeric difficulty", { ...base, difficulty: "lots" }, "bad_difficulty"],
  ];
  for (const [name, raw, code] of cases) test(`refuses ${name} (${code})`, () => expect(refusal(raw)).toBe(code));

  test("the failure vector that must be rejected before searching is rejected", () => {
    const f = v.failure_vectors.find((x: any) => x.expected.startsWith("reject"));
    expect(refusal({ ...base, salt: f.salt, expire_at: f.expire_at, difficulty: f.difficulty, challenge: f.challenge_hex })).toBe("bad_challenge");
  });

  test("PowChallengeError is an Error with a name and a code", () => {
    const e = new PowChallengeError("bad_algorithm", "x");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("PowChallengeError");
    expect(e.code).toBe("bad_algorithm");
  });
});
