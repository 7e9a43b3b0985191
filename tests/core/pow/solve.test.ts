// The answer search (core-upstream §6.3): the pow.json solve and failure vectors, the ends of the range,
// the places where the digit count changes, both halves of the two-candidate search, long and UTF-8 salts.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { hashV1Hex, hashV1Reference } from "../../helpers/hash-reference";
import { powPrefix, solve, solveRange } from "../../../src/core/pow/solve";
import { PowChallengeError } from "../../../src/core/pow/challenge";

const v = loadVectors("pow.json");
const enc = new TextEncoder();

/** A challenge whose answer is `answer` (the reference hash publishes it, as core does). */
function challengeFor(salt: string, expireAt: number, answer: number, difficulty: number) {
  const digest = hashV1Reference(enc.encode(`${salt}_${expireAt}_${answer}`));
  return { salt, expire_at: expireAt, difficulty, challenge: Buffer.from(digest).toString("hex") };
}

describe("pow.json solve vectors", () => {
  for (const s of v.solve_vectors) {
    test(`finds ${s.expected_answer} for ${s.prefix} below ${s.difficulty}`, () => {
      expect(new TextDecoder().decode(powPrefix(s.salt, s.expire_at))).toBe(s.prefix);
      expect(solve({ salt: s.salt, expire_at: s.expire_at, difficulty: s.difficulty, challenge: s.challenge_hex })).toBe(s.expected_answer);
    });
    test(`finds ${s.expected_answer} for ${s.prefix} with an upper-case challenge`, () => {
      expect(solve({ salt: s.salt, expire_at: s.expire_at, difficulty: s.difficulty, challenge: s.challenge_hex.toUpperCase() })).toBe(s.expected_answer);
    });
  }
});

describe("pow.json failure vectors", () => {
  test("no solution below the difficulty: null after testing 0..1999 (the match at 2000 is not taken)", () => {
    const f = v.failure_vectors[0];
    expect(solve({ salt: f.salt, expire_at: f.expire_at, difficulty: f.difficulty, challenge: f.challenge_hex })).toBeNull();
    // The vector's note says the matching nonce is 2000: one more candidate finds it.
    expect(solve({ salt: f.salt, expire_at: f.expire_at, difficulty: f.difficulty + 1, challenge: f.challenge_hex })).toBe(2000);
  });
  test("a challenge that is not 64 hex characters is refused before searching", () => {
    const f = v.failure_vectors[1];
    expect(() => solve({ salt: f.salt, expire_at: f.expire_at, difficulty: f.difficulty, challenge: f.challenge_hex })).toThrow(PowChallengeError);
  });
});

describe("range ends", () => {
  test("answer 0", () => expect(solve(challengeFor("edge", 1712345678, 0, 144000))).toBe(0));
  test("answer difficulty − 1 (143999 at 144000)", () => expect(solve(challengeFor("edge", 1712345678, 143999, 144000))).toBe(143999));
  test("answer difficulty − 1 at a small difficulty (999 at 1000)", () => expect(solve(challengeFor("edge", 1, 999, 1000))).toBe(999));
  test("the answer equal to the difficulty is out of range: null", () => expect(solve(challengeFor("edge", 1, 1000, 1000))).toBeNull());
  test("difficulty 1 searches only 0", () => {
    expect(solve(challengeFor("edge", 1, 0, 1))).toBe(0);
    expect(solve(challengeFor("edge", 1, 1, 1))).toBeNull();
  });
  test("no candidate matches a random digest: null", () => {
    expect(solve({ salt: "s", expire_at: 1, difficulty: 144000, challenge: "0123456789abcdef".repeat(4) })).toBeNull();
  });
  test("difficulty defaults to 144000 when the caller has none", () => {
    const { difficulty: _d, ...ch } = challengeFor("edge", 2, 143998, 144000);
    expect(solve(ch)).toBe(143998);
  });
});

describe("digit carries and digit-count changes", () => {
  for (const answer of [9, 10, 19, 99, 100, 109, 199, 999, 1000, 9999, 10000, 99999, 100000]) {
    test(`answer ${answer}`, () => expect(solve(challengeFor("carry", 1700000000, answer, 144000))).toBe(answer));
  }
});

describe("the two-candidate search", () => {
  // With chunk = 7, each chunk is split 4 / 3: candidate A tries the first four, B the last three (and one
  // out-of-chunk step that must never be accepted).
  for (const answer of [0, 3, 4, 6, 7, 10, 11, 13, 14, 20]) {
    test(`answer ${answer} with an odd chunk of 7`, () => {
      expect(solve(challengeFor("pair", 1, answer, 1000), { chunk: 7 })).toBe(answer);
    });
  }
  test("the out-of-chunk step of candidate B is not accepted at the end of the range", () => {
    // difficulty 7, chunk 7: B's fourth step hashes candidate 7, which is outside [0, 7).
    expect(solve(challengeFor("pair", 1, 7, 7), { chunk: 7 })).toBeNull();
  });
  test("a chunk of one candidate", () => {
    expect(solve(challengeFor("pair", 1, 5, 10), { chunk: 1 })).toBe(5);
  });
});

describe("salts", () => {
  test("a UTF-8 salt is hashed as UTF-8 bytes", () => {
    const h = v.hash_vectors.find((x: any) => x.input_utf8 === "盐_1712345678_5");
    expect(solve({ salt: "盐", expire_at: 1712345678, difficulty: 100, challenge: h.expected_hex })).toBe(5);
  });
  test("a prefix whose pad lands on the last byte of the block (0x86)", () => {
    // prefix = salt + "_1_" → 135 bytes with a one-digit answer: message length 135 ≡ 135 (mod 136).
    const salt = "p".repeat(135 - 3 - 1);
    expect(powPrefix(salt, 1).length + 1).toBe(135);
    expect(solve(challengeFor(salt, 1, 7, 100))).toBe(7);
    expect(solve(challengeFor(salt, 1, 42, 100))).toBe(42);
  });
  test("a salt long enough that candidates span two blocks", () => {
    const salt = "q".repeat(200);
    expect(solve(challengeFor(salt, 1, 123, 200))).toBe(123);
  });
  test("candidates crossing from one block to two inside the range", () => {
    // prefix 133 bytes: one-digit candidates fit one block (134 + pad), two digits leave no room for 0x06.
    const salt = "r".repeat(133 - 3);
    expect(solve(challengeFor(salt, 1, 8, 200))).toBe(8);
    expect(solve(challengeFor(salt, 1, 57, 200))).toBe(57);
    expect(solve(challengeFor(salt, 1, 150, 200))).toBe(150);
  });
});

describe("options", () => {
  test("from/to restrict the range", () => {
    const ch = challengeFor("range", 1, 500, 1000);
    expect(solve(ch, { from: 400, to: 600 })).toBe(500);
    expect(solve(ch, { from: 501 })).toBeNull();
    expect(solve(ch, { to: 500 })).toBeNull();
  });
  test("shouldStop abandons the search between chunks", () => {
    let polls = 0;
    const ch = challengeFor("stop", 1, 143999, 144000);
    expect(solve(ch, { chunk: 1000, shouldStop: () => ++polls > 3 })).toBeNull();
    expect(polls).toBe(4);
  });
  test("solveRange takes the raw target bytes", () => {
    const ch = challengeFor("raw", 9, 77, 100);
    expect(solveRange({ salt: "raw", expireAt: 9, difficulty: 100, target: Buffer.from(ch.challenge, "hex") })).toBe(77);
  });
  test("the found answer reproduces the challenge", () => {
    const ch = challengeFor("check", 3, 31337, 144000);
    const n = solve(ch)!;
    expect(hashV1Hex(enc.encode(`check_3_${n}`))).toBe(ch.challenge);
  });
});
