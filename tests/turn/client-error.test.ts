// What a client is answered when the turn fails before its response started (D4.3, D8.10, D8.11).
import { describe, expect, test } from "bun:test";
import { clientError } from "../../src/turn/client-error";
import { LoginFailedError } from "../../src/accounts/manager";
import { GatewayError } from "../../src/util/gateway-error";
import { coreFailure } from "./helpers";

const answer = (e: unknown, mode: "managed" | "passthrough" = "managed") => {
  const g = clientError(e, mode);
  return [g.status, g.code];
};

describe("client errors before the response started", () => {
  test("core rejecting the credential: 401 in pass-through, never 401 in managed mode (D8.10, D8.11)", () => {
    expect(answer(coreFailure("upstream_auth"), "passthrough")).toEqual([401, "invalid_upstream_token"]);
    expect(answer(coreFailure("upstream_auth"))).toEqual([503, "upstream_unavailable"]);
  });

  test("core's kinds map to their codes; unknown kinds are upstream_unavailable", () => {
    expect(answer(coreFailure("input_exceeds_limit"))).toEqual([400, "context_length_exceeded"]);
    expect(answer(coreFailure("upstream_invalid_ref_file_id"))).toEqual([400, "invalid_request"]);
    expect(answer(coreFailure("upstream_empty_output"))).toEqual([503, "upstream_empty_output"]);
    expect(answer(coreFailure("model_unavailable"))).toEqual([503, "model_unavailable"]);
    expect(answer(coreFailure("something_new"))).toEqual([503, "upstream_unavailable"]);
  });

  test("a gateway error is kept; a failed login is upstream_auth_failed; anything else upstream_unavailable", () => {
    const own = new GatewayError(429, "queue_timeout", "busy");
    expect(clientError(own, "managed")).toBe(own);
    expect(answer(new LoginFailedError("a", "no"))).toEqual([503, "upstream_auth_failed"]);
    expect(answer(new TypeError("x"))).toEqual([503, "upstream_unavailable"]);
  });
});
