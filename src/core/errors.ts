// Typed failures of the core client. Messages never contain a token (core-upstream §3).
import type { CoreFailureKind } from "./classify";

export type CoreErrorKind = CoreFailureKind | "upstream_timeout" | "upstream_empty_output" | "login_failed" | "model_unavailable" | "current_input_file_upload_failed";

export class CoreError extends Error {
  constructor(
    readonly kind: CoreErrorKind,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = "CoreError";
  }
}

/** Failures that another attempt on the same account may fix (core-upstream §10.7 first row). */
export function retryableOnAccount(kind: CoreErrorKind): boolean {
  return kind === "upstream_error" || kind === "upstream_busy" || kind === "upstream_pow_failed" || kind === "upstream_rate_limited";
}
