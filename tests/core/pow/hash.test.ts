// HashV1 (core-upstream §6.2) is bit-exact on every hash vector of pow.json, in both implementations.
import { describe, expect, test } from "bun:test";
import { loadVectors } from "../../helpers/vectors";
import { hashV1 } from "../../../src/core/pow/hash";
import { hashV1Hex, hashV1Reference } from "../../helpers/hash-reference";
import { vectorInput } from "./vector-input";

const v = loadVectors("pow.json");
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("HashV1 on the pow.json hash vectors", () => {
  for (const h of v.hash_vectors) {
    const name = h.input_utf8 !== undefined ? JSON.stringify(h.input_utf8) : h.input_desc;
    test(`WebAssembly hash of ${name} (${h.input_len_bytes} bytes)`, () => {
      const input = vectorInput(h);
      expect(input.length).toBe(h.input_len_bytes);
      expect(hashV1Hex(input)).toBe(h.expected_hex);
    });
    test(`reference hash of ${name}`, () => {
      expect(hex(hashV1Reference(vectorInput(h)))).toBe(h.expected_hex);
    });
    if (h.standard_sha3_256_hex_for_contrast) {
      test(`the same input under standard SHA3-256 gives the contrast value (${name})`, () => {
        expect(new Bun.CryptoHasher("sha3-256").update(vectorInput(h)).digest("hex")).toBe(h.standard_sha3_256_hex_for_contrast);
        expect(h.expected_hex).not.toBe(h.standard_sha3_256_hex_for_contrast);
      });
    }
  }
});

describe("HashV1 properties", () => {
  test("the empty string gives the check value of §6.2, not SHA3-256's a7ffc6f8…", () => {
    expect(hashV1Hex(new Uint8Array())).toBe("e594808bc5b7151ac160c6d39a02e0a8e261ed588578403099e3561dc40c26b3");
    expect(new Bun.CryptoHasher("sha3-256").update("").digest("hex").startsWith("a7ffc6f8")).toBe(true);
  });

  test("the WebAssembly and reference implementations agree on every length 0..700 (all padding positions)", () => {
    let seed = 12345;
    const byte = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    for (let len = 0; len <= 700; len++) {
      const data = Uint8Array.from({ length: len }, byte);
      const got = hex(hashV1(data));
      const want = hex(hashV1Reference(data));
      if (got !== want) throw new Error(`length ${len}: ${got} != ${want}`);
    }
  });

  test("a message larger than the module's first memory page grows it, and later hashes stay right", () => {
    const big = new Uint8Array(300_000).fill(0x5a);
    expect(hex(hashV1(big))).toBe(hex(hashV1Reference(big)));
    const abc = v.hash_vectors.find((h: any) => h.input_utf8 === "abc");
    expect(hashV1Hex(new TextEncoder().encode("abc"))).toBe(abc.expected_hex);
  });

  test("the digest is a fresh array each call (callers may keep it)", () => {
    const a = hashV1(new TextEncoder().encode("x"));
    const b = hashV1(new TextEncoder().encode("y"));
    expect(hex(a)).not.toBe(hex(b));
    expect(hex(a)).toBe(hashV1Hex(new TextEncoder().encode("x")));
  });
});
