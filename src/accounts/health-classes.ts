// Failure classes of an account (issue 32) and the policy each one drives. Core's real codes for a wrong
// password, a ban, a quota or a rate limit are unknown (core-upstream §11), so several classes come from the
// documented heuristics (§4, §5.1, §10.8); their detail says so.
import { CoreError, LoginError } from "../core/errors";

export type FailureClass =
  | "credential_rejected"
  | "token_expired"
  | "suspected_ban"
  | "rate_limited"
  | "pow_rejected"
  | "busy_session"
  | "proxy_unreachable"
  | "network"
  | "core_error"
  | "timeout"
  | "base_url_wrong"
  | "daily_cap";

export interface ClassPolicy {
  /** Consecutive failures of this class that put the account into cooldown; 0 = recorded only. */
  threshold: number;
  baseMs: number;
  capMs: number;
  /** Cooldowns in a row (no success between) after which the account waits for the operator; 0 = never. */
  disableAfter: number;
}

/**
 * Only failures that say something about THIS account cool it down. Network errors, core 5xx, timeouts and a
 * wrong base URL hit every account alike: cooling one would only shift the load (recorded, not acted on).
 * A busy session and an expired token are handled per request (another session, one re-login).
 */
export const DEFAULT_POLICY: Record<FailureClass, ClassPolicy> = {
  // D8.9: a failed login cools the account for 300 s; repeated, it grows, and the third in a row disables it.
  credential_rejected: { threshold: 1, baseMs: 300_000, capMs: 3_600_000, disableAfter: 3 },
  suspected_ban: { threshold: 2, baseMs: 600_000, capMs: 6 * 3_600_000, disableAfter: 3 },
  // Six failures in a row with no answer between: empty answers (§10.8, core's only rate-limit signal, but also
  // what a broken reply looks like, so one or two must not cost the account) or HTTP 429.
  rate_limited: { threshold: 6, baseMs: 60_000, capMs: 1_800_000, disableAfter: 0 },
  pow_rejected: { threshold: 3, baseMs: 30_000, capMs: 600_000, disableAfter: 0 },
  // Fail closed: an account bound to a proxy that is down is not used directly.
  proxy_unreachable: { threshold: 1, baseMs: 10_000, capMs: 300_000, disableAfter: 0 },
  busy_session: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  token_expired: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  network: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  core_error: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  timeout: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  base_url_wrong: { threshold: 0, baseMs: 0, capMs: 0, disableAfter: 0 },
  // The gateway's own daily cap (pacing): out until the next UTC midnight (health.ts computes the length).
  daily_cap: { threshold: 1, baseMs: 1, capMs: 86_400_000, disableAfter: 0 },
};

/** Exponential backoff with up to 25 % jitter, capped: the n-th cooldown in a row (n from 0). */
export function backoffMs(p: ClassPolicy, n: number, random: () => number = Math.random): number {
  const raw = p.baseMs * 2 ** Math.min(n, 30);
  return Math.round(Math.min(p.capMs, raw * (1 + 0.25 * random())));
}

/** Words of a login refusal that is about the password or the identifier, not the account's standing. */
const CREDENTIAL_WORDS = ["password", "passwd", "not found", "not exist", "no such", "incorrect", "wrong", "invalid", "credential", "密码", "不存在", "错误"];

export interface Classified {
  cls: FailureClass;
  detail: string;
}

/** A login refusal: the password (or identifier) when its text says so, else a suspected ban (§11 heuristic). */
export function classifyLoginRefusal(message: string): Classified {
  const m = message.toLowerCase();
  if (CREDENTIAL_WORDS.some((w) => m.includes(w))) return { cls: "credential_rejected", detail: message };
  return { cls: "suspected_ban", detail: `${message} (core refused the login with a message that is not about the password; core's ban codes are unknown, core-upstream §11)` };
}

/** The class of a failed core call or login; null for failures that say nothing about the account. */
export function classifyFailure(e: unknown): Classified | null {
  if (!(e instanceof CoreError)) return null;
  const detail = e.message;
  if (e.origin === "pacing") return { cls: "daily_cap", detail };
  if (e.origin === "proxy") return { cls: "proxy_unreachable", detail };
  if (e.origin === "base_url") return { cls: "base_url_wrong", detail };
  if (e.origin === "timeout") return { cls: "timeout", detail };
  if (e.origin === "network") return { cls: "network", detail };
  if (e instanceof LoginError) {
    if (e.reason === "rejected") return classifyLoginRefusal(detail);
    return { cls: e.status !== undefined && e.status >= 500 ? "core_error" : "network", detail };
  }
  switch (e.kind) {
    case "upstream_auth":
      return { cls: "token_expired", detail };
    case "upstream_pow_failed":
      return { cls: "pow_rejected", detail };
    case "upstream_busy":
      return { cls: "busy_session", detail };
    case "upstream_rate_limited":
      return { cls: "rate_limited", detail };
    case "upstream_empty_output":
      return { cls: "rate_limited", detail: `${detail} (an empty answer is core's only rate-limit signal, core-upstream §10.8)` };
    case "upstream_timeout":
      return { cls: "timeout", detail };
    case "upstream_error":
      if (e.status !== undefined && e.status >= 500) return { cls: "core_error", detail };
      // Refused with HTTP 200/4xx and a message that is not auth, busy or PoW: what a disabled account is
      // expected to look like (§11: the real form is unknown). Repeated, it cools the account down.
      if (e.status !== undefined) return { cls: "suspected_ban", detail: `${detail} (core refused the call with an unclassified message; heuristic, core-upstream §11)` };
      return { cls: "network", detail };
    default:
      // Input too long, a foreign file id, a refused model: the request's fault, not the account's.
      return null;
  }
}

/** An account identifier as logs show it: enough to tell accounts apart, not enough to log in with. */
export function maskIdentifier(id: string): string {
  const at = id.indexOf("@");
  if (at > 0) return `${id.slice(0, Math.min(2, at))}***${id.slice(at)}`;
  if (id.startsWith("token:")) return `token:${id.slice(6, 12)}…`;
  return id.length > 6 ? `${id.slice(0, 4)}****${id.slice(-3)}` : "****";
}
