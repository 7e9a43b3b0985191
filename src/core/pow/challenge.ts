// PoW challenges (core-upstream §6.1) and the answer header (§6.4).

export interface PowChallenge {
  algorithm: string;
  challenge: string;
  salt: string;
  expire_at: number;
  difficulty: number;
  signature: unknown;
  target_path: string;
}

export class PowChallengeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PowChallengeError";
  }
}

export const DEFAULT_DIFFICULTY = 144000;

/** Validates a challenge object as core sent it; throws PowChallengeError for anything to refuse. */
export function parseChallenge(raw: unknown, algorithm: string): PowChallenge {
  if (!raw || typeof raw !== "object") throw new PowChallengeError("challenge is not an object");
  const c = raw as Record<string, unknown>;
  if (c.algorithm !== algorithm) throw new PowChallengeError(`unsupported PoW algorithm ${JSON.stringify(c.algorithm)}`);
  if (typeof c.challenge !== "string" || !/^[0-9a-fA-F]{64}$/.test(c.challenge)) throw new PowChallengeError("challenge must be 64 hex characters");
  if (typeof c.expire_at !== "number" || !Number.isInteger(c.expire_at)) throw new PowChallengeError("challenge has no integer expire_at");
  const difficulty = c.difficulty === undefined || c.difficulty === null ? DEFAULT_DIFFICULTY : Number(c.difficulty);
  if (!Number.isInteger(difficulty) || difficulty < 1) throw new PowChallengeError("difficulty must be a positive integer");
  return {
    algorithm: c.algorithm,
    challenge: c.challenge,
    salt: typeof c.salt === "string" ? c.salt : String(c.salt ?? ""),
    expire_at: c.expire_at,
    difficulty,
    signature: c.signature ?? null,
    target_path: typeof c.target_path === "string" ? c.target_path : String(c.target_path ?? ""),
  };
}

export function targetBytes(ch: PowChallenge): Uint8Array {
  return Uint8Array.from(Buffer.from(ch.challenge, "hex"));
}

/** Base64 of the compact JSON with keys in alphabetical order; expire_at and difficulty are not included. */
export function powHeader(ch: Pick<PowChallenge, "algorithm" | "challenge" | "salt" | "signature" | "target_path">, answer: number): string {
  const json = JSON.stringify({
    algorithm: ch.algorithm ?? null,
    answer,
    challenge: ch.challenge ?? null,
    salt: ch.salt ?? null,
    signature: ch.signature ?? null,
    target_path: ch.target_path ?? null,
  });
  return Buffer.from(json, "utf8").toString("base64");
}
