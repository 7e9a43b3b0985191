// PoW challenges as core sends them (core-upstream §6.1): checked before any search starts, because a
// refused challenge is replaced by a fresh one rather than searched in vain.

export interface PowChallenge {
  algorithm: string;
  /** 64 hex characters (either case) = the 32-byte target digest. */
  challenge: string;
  salt: string;
  /** Integer Unix time, seconds. */
  expire_at: number;
  difficulty: number;
  /** Opaque; echoed back untouched (null when core sent none). */
  signature: unknown;
  target_path: string;
}

/** Why a challenge was refused; one code per §6.1 check so callers and logs can tell them apart. */
export type PowChallengeErrorCode = "not_object" | "bad_algorithm" | "bad_challenge" | "bad_expire_at" | "bad_difficulty";

export class PowChallengeError extends Error {
  constructor(
    readonly code: PowChallengeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "PowChallengeError";
  }
}

export const DEFAULT_DIFFICULTY = 144000;

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** Validates a challenge object as core sent it; throws PowChallengeError for anything to refuse. */
export function parseChallenge(raw: unknown, algorithm: string): PowChallenge {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new PowChallengeError("not_object", "challenge is not an object");
  const c = raw as Record<string, unknown>;
  if (c.algorithm !== algorithm) throw new PowChallengeError("bad_algorithm", `unsupported PoW algorithm ${JSON.stringify(c.algorithm)}`);
  if (typeof c.challenge !== "string" || !HEX64.test(c.challenge)) throw new PowChallengeError("bad_challenge", "challenge must be exactly 64 hex characters");
  if (typeof c.expire_at !== "number" || !Number.isSafeInteger(c.expire_at)) throw new PowChallengeError("bad_expire_at", "challenge has no integer expire_at");
  // The search bound must be a whole number of candidates; a numeric string is tolerated (JSON from
  // other clients sometimes quotes numbers), anything else is refused rather than guessed.
  const difficulty = c.difficulty === undefined || c.difficulty === null ? DEFAULT_DIFFICULTY : typeof c.difficulty === "string" && c.difficulty.trim() !== "" ? Number(c.difficulty) : c.difficulty;
  if (typeof difficulty !== "number" || !Number.isSafeInteger(difficulty) || difficulty < 1) throw new PowChallengeError("bad_difficulty", "difficulty must be a positive integer");
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

// The header lives in header.ts; re-exported so existing callers keep one import.
export { powHeader } from "./header";
