// Business authentication (gateway.md "Authentication", D5.1–D5.3): managed mode when the credential is a
// configured key, pass-through otherwise (the credential is core's bearer token, unchecked until core answers).
import type { AppContext } from "../context";
import { keepOpen } from "../context";
import { GatewayError } from "../util/gateway-error";
import { extractBusinessCredential } from "./credentials";
import type { RequestState } from "../metering/request-state";
import { normaliseIdentifier } from "../config/identity";
import { keyPolicies } from "../metering/key-policy";
import type { Caller } from "../accounts/caller";

export function authenticateBusiness(ctx: AppContext, request: Request, state: RequestState): Caller {
  const cred = extractBusinessCredential(request, state.search);
  if (!cred) throw new GatewayError(401, "missing_credentials", "No API key was provided (Authorization: Bearer, x-api-key, x-goog-api-key or ?key=).");
  // One digest for the managed-key check and the fingerprint (its first 16 hex, util/hash.ts callerFingerprint).
  const digest = Bun.CryptoHasher.hash("sha256", cred.token);
  const configured = cred.token !== "" && ctx.config.isManagedKeyDigest(digest);
  const demo = configured && onDemoAccounts(ctx);
  const managed = configured && !demo;
  const pinnedHeader = request.headers.get("x-svc-target-account")?.trim();
  const ownerHash = digest.toString("hex");
  const caller: Caller = {
    mode: managed ? "managed" : "passthrough",
    // The managed key itself never goes to core, not even to the simulator.
    token: demo ? ctx.demoCoreToken! : cred.token,
    fingerprint: `caller:${ownerHash.slice(0, 16)}`,
    ownerHash,
    // Matched after the normalisation of D8.1, so `A@X.com` pins `a@x.com`.
    pinned: managed && pinnedHeader ? normaliseIdentifier(pinnedHeader) : undefined,
    source: request.headers.get("x-svc-source") ?? "",
  };
  state.mode = caller.mode;
  state.caller = caller.fingerprint;
  if (configured) {
    state.configuredKey = caller.fingerprint;
    // Issue 31: disabled / expired keys are refused here (401), before their quota is touched.
    state.allowedModels = keyPolicies.admit(ctx.config.get(), cred.token, ctx.now());
  }
  if (configured && ctx.ops) {
    ctx.ops.admit(cred.token, caller.fingerprint);
    state.admittedKey = caller.fingerprint;
  }
  // Business requests may run for minutes: lift the idle timeout (D1.3).
  keepOpen(ctx, request);
  return caller;
}

/**
 * D8.6: in demo mode a managed key is served by the simulator's demo accounts while the config lists no
 * account of its own, so "any key works" holds after an operator adds a key. Once an account is added,
 * managed keys use the pool as usual.
 */
function onDemoAccounts(ctx: AppContext): boolean {
  return ctx.demoCoreToken !== undefined && (ctx.config.get().accounts?.length ?? 0) === 0;
}
