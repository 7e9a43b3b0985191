// What a client is answered when a turn fails before its response started (D4.3, core-upstream §10.7), and how a
// core failure is told from other errors: core's failures carry a `kind` (src/core/errors.ts).
import { GatewayError } from "../util/gateway-error";
import { invalidRequest } from "../util/invalid-request";
import { LoginFailedError } from "../accounts/manager";
import type { Caller } from "../accounts/caller";

export interface CoreFailure extends Error {
  kind: string;
}

export function isCoreFailure(e: unknown): e is CoreFailure {
  return e instanceof Error && typeof (e as CoreFailure).kind === "string";
}

/** Core's failure kinds as a client is told them before its response started: status, code of D4.3, our own words. */
const CORE_FAILURES = new Map<string, [status: number, code: string, message: string]>([
  ["upstream_auth", [503, "upstream_unavailable", "Core rejected the account's credentials."]],
  ["input_exceeds_limit", [400, "context_length_exceeded", "The conversation is too long for the model."]],
  ["upstream_timeout", [503, "upstream_timeout", "Core sent nothing for too long."]],
  ["upstream_empty_output", [503, "upstream_empty_output", "Core returned an empty answer."]],
  ["model_unavailable", [503, "model_unavailable", "Core refused the model."]],
  ["current_input_file_upload_failed", [503, "current_input_file_upload_failed", "Uploading the conversation context file to core failed."]],
]);
const RETRIES_FAILED: [number, string, string] = [503, "upstream_unavailable", "Core is unavailable; the request failed after retries."];

/** Maps a failure before the response started to the client-facing error of D4.3 / core-upstream §10.7. */
export function clientError(e: unknown, mode: Caller["mode"]): GatewayError {
  if (e instanceof GatewayError) return e;
  if (isCoreFailure(e)) {
    // A pass-through caller's own token was refused: that is the caller's credential, not our account.
    if (e.kind === "upstream_auth" && mode === "passthrough")
      return new GatewayError(401, "invalid_upstream_token", "The credential is not a configured key and core rejected it as a token.");
    if (e.kind === "upstream_invalid_ref_file_id") return invalidRequest("A referenced file does not belong to the account serving this request.");
    const [status, code, message] = CORE_FAILURES.get(e.kind) ?? RETRIES_FAILED;
    return new GatewayError(status, code, message);
  }
  if (e instanceof LoginFailedError) return new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
  return new GatewayError(503, "upstream_unavailable", "Core is unavailable.");
}
