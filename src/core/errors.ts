// Typed failures of the core client (core-upstream §4, §10.7). A message never carries a token (§3): every
// text that may echo a request (core's own messages, fetch errors) goes through `scrubSecrets` first.
import type { CoreFailureKind } from "./classify";

export type CoreErrorKind =
  | CoreFailureKind
  | "upstream_timeout"
  | "upstream_empty_output"
  | "login_failed"
  // Raised by the layers above the client, kept in one union so run.ts maps every kind in one switch.
  | "model_unavailable"
  | "current_input_file_upload_failed";

/** The proxy, the network, a deadline, a base URL that does not lead to core, or the gateway's own pacing. */
export type FailureOrigin = "proxy" | "network" | "timeout" | "base_url" | "pacing";

export class CoreError extends Error {
  /** HTTP status of core's answer when there was one. */
  readonly status: number | undefined;
  /** Where a call failed before core judged it (issue 32: errors that name the cause); unset when core answered. */
  origin?: FailureOrigin;

  constructor(
    readonly kind: CoreErrorKind,
    message: string,
    status?: number,
  ) {
    super(scrubSecrets(message));
    this.name = "CoreError";
    this.status = status;
  }

  /** Older name of `status`. */
  get httpStatus(): number | undefined {
    return this.status;
  }
}

/** `err` with its origin set (the chained form keeps throw sites one line). */
export function withOrigin<E extends CoreError>(err: E, origin: FailureOrigin): E {
  err.origin = origin;
  return err;
}

/** Why a login failed: core said no (wrong password…), core was unreachable, or the reply had no token. */
export type LoginFailure = "rejected" | "unreachable" | "malformed";

export class LoginError extends CoreError {
  constructor(
    readonly reason: LoginFailure,
    message: string,
    status?: number,
  ) {
    super("login_failed", message, status);
    this.name = "LoginError";
  }
}

/**
 * Failures another attempt on the same account may fix (§10.7 first row, D8.10): HTTP errors, busy session,
 * rejected PoW, 429, network errors and breaks before output. Auth is not retryable as such: it takes the
 * re-login path first. Input too long, a foreign file id, a timeout and an empty output never retry here.
 */
export function retryable(kind: CoreErrorKind): boolean {
  return kind === "upstream_error" || kind === "upstream_busy" || kind === "upstream_pow_failed" || kind === "upstream_rate_limited";
}

const BEARER = /(bearer\s+)[^\s"',;]+/gi;

/** Removes bearer credentials and the given secrets from a text that may reach logs or clients. */
export function scrubSecrets(text: string, ...secrets: (string | undefined | null)[]): string {
  let out = text.replace(BEARER, "$1***");
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("***");
  return out;
}

