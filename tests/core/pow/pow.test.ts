// CoreHashV1 and the answer search, bit-exact on vectors/pow.json (core-upstream §6).
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { hashV1Hex } from "../../../src/core/pow/hash";
import { solveRange } from "../../../src/core/pow/solve";
import { parseChallenge, powHeader, PowChallengeError } from "../../../src/core/pow/challenge";
import { PowPool } from "../../../src/core/pow/pool";

const v = loadVectors("pow.json");

function inputOf(h: any): Uint8Array {
  if (h.input_utf8 !== undefined) return new TextEncoder().encode(h.input_utf8);
  const m = /byte '(.)' \(0x([0-9a-f]{2})\) repeated (\d+) times/.exec(h.input_desc);
  if (!m) throw new Error(`cannot build input: ${h.input_desc}`);
  return new Uint8Array(Number(m[3])).fill(parseInt(m[2]!, 16));
}

describe("HashV1", () => {
  test.each(v.hash_vectors.map((h: any) => [h.input_utf8 ?? h.input_desc, h]))("%s", (_n, h: any) => {
    expect(hashV1Hex(inputOf(h))).toBe(h.expected_hex);
  });
  test("differs from standard SHA3-256", () => {
    expect(hashV1Hex(new Uint8Array())).not.toBe(new Bun.CryptoHasher("sha3-256").update("").digest("hex"));
  });
});

describe("answer search", () => {
  test.each(v.solve_vectors.map((s: any) => [s.expected_answer, s]))("finds %p", (_a, s: any) => {
    expect(solveRange({ salt: s.salt, expireAt: s.expire_at, difficulty: s.difficulty, target: Buffer.from(s.challenge_hex, "hex") })).toBe(s.expected_answer);
  });
  test("reports failure when the answer is outside [0, difficulty)", () => {
    const f = v.failure_vectors.find((x: any) => x.challenge_hex?.length === 64);
    expect(solveRange({ salt: f.salt, expireAt: f.expire_at, difficulty: f.difficulty, target: Buffer.from(f.challenge_hex, "hex") })).toBeNull();
  });
});

describe("challenge and header", () => {
  test.each(v.header_vectors.map((h: any) => [h.note, h]))("header %s", (_n, h: any) => {
    const o = JSON.parse(h.header_json_compact_sorted_keys);
    expect(powHeader(o, o.answer)).toBe(h.header_value);
  });
  const base = { algorithm: "CoreHashV1", challenge: "a".repeat(64), salt: "s", expire_at: 1, target_path: "/t" };
  test("defaults: difficulty 144000, signature null; upper-case hex accepted", () => {
    const c = parseChallenge({ ...base, challenge: "A".repeat(64) }, "CoreHashV1");
    expect(c.difficulty).toBe(144000);
    expect(c.signature).toBeNull();
  });
  test.each([
    ["another algorithm", { ...base, algorithm: "Other" }],
    ["a short challenge", { ...base, challenge: "ab" }],
    ["non-hex", { ...base, challenge: "z".repeat(64) }],
    ["no expire_at", { ...base, expire_at: undefined }],
  ])("refuses %s", (_n, raw) => {
    expect(() => parseChallenge(raw, "CoreHashV1")).toThrow(PowChallengeError);
  });
});

describe("worker pool", () => {
  const s = v.solve_vectors.find((x: any) => x.difficulty === 144000);
  const ch = parseChallenge({ algorithm: "CoreHashV1", challenge: s.challenge_hex, salt: s.salt, expire_at: s.expire_at, difficulty: s.difficulty, target_path: "/x" }, "CoreHashV1");

  test("a solve at full difficulty never blocks the event loop: /healthz answers meanwhile", async () => {
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("ok") });
    const pool = new PowPool(1);
    let solved = false;
    const solving = pool.solve(ch).then((a) => {
      solved = true;
      return a;
    });
    const health = await fetch(`http://127.0.0.1:${server.port}/healthz`);
    expect(await health.text()).toBe("ok");
    expect(solved).toBe(false);
    expect(await solving).toBe(s.expected_answer);
    pool.close();
    server.stop(true);
  });

  test("aborting cancels the search and the pool keeps working", async () => {
    const pool = new PowPool(1);
    const ac = new AbortController();
    const p = pool.solve(ch, ac.signal);
    ac.abort(new Error("client went away"));
    await expect(p).rejects.toThrow("client went away");
    expect(await pool.solve(ch)).toBe(s.expected_answer);
    pool.close();
  });
});
