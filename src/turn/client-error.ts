// What a client is answered when a turn fails before its response started (D4.3, core-upstream §10.7), and how a
// core failure is told from other errors: core's failures carry a `kind` (src/core/errors.ts).
import { GatewayError } from "../util/gateway-error";
import { LoginFailedError } from "../accounts/manager";
import type { Caller } from "../accounts/caller";

export interface CoreFailure extends Error {
  kind: string;
}

export function isCoreFailure(e: unknown): e is CoreFailure {
  return e instanceof Error && typeof (e as CoreFailure).kind === "string";
}

/** Maps a failure before the response started to the client-facing error of D4.3 / core-upstream §10.7. */
export function clientError(e: unknown, mode: Caller["mode"]): GatewayError {
  if (e instanceof GatewayError) return e;
  if (isCoreFailure(e)) {
    switch (e.kind) {
      case "upstream_auth":
        return mode === "passthrough"
          ? new GatewayError(401, "invalid_upstream_token", "The credential is not a configured key and core rejected it as a token.")
          : new GatewayError(503, "upstream_unavailable", "Core rejected the account's credentials.");
      case "input_exceeds_limit":
        return new GatewayError(400, "context_length_exceeded", "The conversation is too long for the model.");
      case "upstream_invalid_ref_file_id":
        return new GatewayError(400, "invalid_request", "A referenced file does not belong to the account serving this request.");
      case "upstream_timeout":
        return new GatewayError(503, "upstream_timeout", "Core sent nothing for too long.");
      case "upstream_empty_output":
        return new GatewayError(503, "upstream_empty_output", "Core returned an empty answer.");
      case "model_unavailable":
        return new GatewayError(503, "model_unavailable", "Core refused the model.");
      case "current_input_file_upload_failed":
        return new GatewayError(503, "current_input_file_upload_failed", "Uploading the conversation context file to core failed.");
      default:
        return new GatewayError(503, "upstream_unavailable", "Core is unavailable; the request failed after retries.");
    }
  }
  if (e instanceof LoginFailedError) return new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
  return new GatewayError(503, "upstream_unavailable", "Core is unavailable.");
}
