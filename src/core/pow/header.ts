// The PoW answer header (core-upstream §6.4): standard Base64 (with '=' padding) of the compact UTF-8 JSON
// object with keys in alphabetical order. expire_at and difficulty are not part of it. Values are copied
// as the challenge held them; a missing one becomes null.
import type { PowChallenge } from "./challenge";

export type PowHeaderFields = Partial<Pick<PowChallenge, "algorithm" | "challenge" | "salt" | "signature" | "target_path">>;

export function powHeaderJson(ch: PowHeaderFields, answer: number): string {
  // Written in alphabetical key order; JSON.stringify keeps insertion order for string keys.
  return JSON.stringify({
    algorithm: ch.algorithm ?? null,
    answer,
    challenge: ch.challenge ?? null,
    salt: ch.salt ?? null,
    signature: ch.signature ?? null,
    target_path: ch.target_path ?? null,
  });
}

export function powHeader(ch: PowHeaderFields, answer: number): string {
  return Buffer.from(powHeaderJson(ch, answer), "utf8").toString("base64");
}
