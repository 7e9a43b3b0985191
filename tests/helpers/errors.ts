// The GatewayError a synchronous call throws (normalisers reject bad requests this way), for assertions on
// its status, code and message.
import { GatewayError } from "../../src/util/gateway-error";

export function gatewayErrorOf(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  throw new Error("expected a GatewayError");
}
