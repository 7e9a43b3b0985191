// The one way to refuse a field of a request (D4.3): 400 `invalid_request` whose `param` is the dotted path of
// the field at fault (`messages.2.role`, `tool_choice.function.name`) and whose message names that field. The
// schema failures (http/validation-error.ts) and the checks a schema cannot express (tool_choice against the
// declared tools, the responses strict mode, …) both build it here; http/errors.ts renders it in the surface's
// shape, so a surface never spells its own 400.
import { GatewayError } from "./gateway-error";

export function invalidRequest(message: string, param: string | null = null): GatewayError {
  return new GatewayError(400, "invalid_request", message, { param });
}
