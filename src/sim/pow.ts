// PoW issuing and verification (core-upstream §6, §12.3): a secret answer per challenge, the published
// digest HashV1(salt_expire_answer), an HMAC signature over the other fields, and a check of every answer
// header against what was issued (algorithm, signature, target, expiry, digest, optional single use).
import { createHmac } from "node:crypto";
import { hashV1 } from "../core/pow/hash";
import { bizFail, type JsonReply } from "./envelope";
import type { RngFamily } from "./rng";
import type { PowCheck, SimSwitches } from "./types";

export const COMPLETION_TARGET = "/api/v0/chat/completion";
export const UPLOAD_TARGET = "/api/v0/file/upload_file";

interface Issued {
  challenge: string;
  salt: string;
  expireAt: number;
  target: string;
  algorithm: string;
  used: boolean;
}

const encoder = new TextEncoder();
const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex");

export function powRejection(form: SimSwitches["powRejectForm"]): JsonReply {
  return form === "envelope200"
    ? { status: 200, json: bizFail(40300, "invalid pow response") }
    : { status: 400, json: { code: 40300, msg: "invalid pow response", data: null } };
}

export class PowDesk {
  private issued = new Map<string, Issued>();
  private key: Uint8Array;

  constructor(private readonly rng: RngFamily) {
    this.key = rng.next("signature-key").bytes(32);
  }

  issue(target: string, sw: SimSwitches, nowS: number) {
    const r = this.rng.next("pow");
    const difficulty = Math.max(1, Math.floor(sw.difficulty));
    const answer = r.int(difficulty);
    const salt = r.hex(16);
    const expireAt = Math.floor(nowS) + sw.powTtlS;
    const challenge = toHex(hashV1(encoder.encode(`${salt}_${expireAt}_${answer}`)));
    const signature = createHmac("sha256", this.key).update(`${sw.powAlgorithm}|${challenge}|${salt}|${expireAt}|${difficulty}|${target}`).digest("hex");
    this.forgetExpired(nowS);
    this.issued.set(signature, { challenge, salt, expireAt, target, algorithm: sw.powAlgorithm, used: false });
    return { algorithm: sw.powAlgorithm, challenge, salt, signature, difficulty, expire_at: expireAt, expire_after: sw.powTtlS * 1000, target_path: target };
  }

  /**
   * Expired challenges can never verify again. The map is in issue order and expiries follow it (one TTL for
   * all, give or take a switch change), so they are dropped from the front: constant time per challenge. A
   * scan of the whole map once it held 10,000 made every challenge of a long run dearer (a bench's core
   * answered 2× slower after 25,000 requests).
   */
  private forgetExpired(nowS: number): void {
    for (const [k, v] of this.issued) {
      // No bound besides expiry: core accepts an unexpired answer again (a continue, a bench's prepared header).
      if (v.expireAt > nowS) return;
      this.issued.delete(k);
    }
  }

  /** How many issued challenges are still kept (a test hook). */
  get kept(): number {
    return this.issued.size;
  }

  /** Checks the answer header for an endpoint whose PoW target is `target`. */
  verify(header: string | null, target: string, sw: SimSwitches, nowS: number): PowCheck {
    if (!header) return { valid: false, reason: "missing" };
    let h: any;
    try {
      h = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    } catch {
      return { valid: false, reason: "not base64 json" };
    }
    if (!h || typeof h !== "object") return { valid: false, reason: "not base64 json" };
    for (const k of ["algorithm", "answer", "challenge", "salt", "signature", "target_path"]) if (!(k in h)) return { valid: false, reason: `missing ${k}` };
    if (h.algorithm !== sw.powAlgorithm) return { valid: false, reason: "algorithm" };
    const issued = typeof h.signature === "string" ? this.issued.get(h.signature) : undefined;
    if (!issued) return { valid: false, reason: "unknown signature" };
    if (h.challenge !== issued.challenge || h.salt !== issued.salt) return { valid: false, reason: "challenge mismatch" };
    if (issued.target !== target || h.target_path !== target) return { valid: false, reason: "wrong target" };
    if (issued.expireAt <= nowS) return { valid: false, reason: "expired" };
    if (!Number.isInteger(h.answer) || h.answer < 0) return { valid: false, reason: "wrong answer" };
    if (toHex(hashV1(encoder.encode(`${issued.salt}_${issued.expireAt}_${h.answer}`))) !== issued.challenge) return { valid: false, reason: "wrong answer" };
    if (issued.used && sw.powSingleUse) return { valid: false, reason: "reused" };
    issued.used = true;
    return { valid: true, reason: "ok" };
  }

  clear(): void {
    this.issued.clear();
  }
}
