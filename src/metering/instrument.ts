// Measurement wrapped around the subsystems from the outside, at wiring time (context-builder.ts), so the pool,
// the PoW pool and the core client stay free of metrics code and their owners can rebuild them freely.
import type { Pool } from "../accounts/pool-api";
import type { CoreClient } from "../core/client";
import { CoreError } from "../core/errors";
import type { PowPool } from "../core/pow/pool";
import type { GatewayMetrics } from "./metrics";

/** Times every acquisition: the wait for a slot, 0 when one was free at once. */
export function instrumentPool(pool: Pool, metrics: GatewayMetrics): void {
  const acquire = pool.acquire.bind(pool);
  pool.acquire = (opts) => {
    const start = performance.now();
    return acquire(opts).then(
      (lease) => {
        metrics.queueWaited(performance.now() - start, "granted");
        return lease;
      },
      (e) => {
        metrics.queueWaited(performance.now() - start, "rejected");
        throw e;
      },
    );
  };
}

export function instrumentPow(pow: PowPool, metrics: GatewayMetrics): void {
  const solve = pow.solve.bind(pow);
  pow.solve = (ch, signal) => {
    const start = performance.now();
    return solve(ch, signal).then(
      (answer) => {
        metrics.powSolved(performance.now() - start, answer === null ? "unsolvable" : "solved");
        return answer;
      },
      (e) => {
        // A search cancelled because its client left is not a PoW failure.
        if (!signal?.aborted) metrics.powSolved(performance.now() - start, "failed");
        throw e;
      },
    );
  };
}

/**
 * Counts core failures by kind. A failure inside a completion passes through several wrapped methods (call
 * inside completion); each error object is counted once.
 */
export function instrumentCore(core: CoreClient, metrics: GatewayMetrics): void {
  const counted = new WeakSet<object>();
  const count = (e: unknown) => {
    if (e instanceof CoreError && !counted.has(e)) {
      counted.add(e);
      metrics.coreFailure(e.kind);
    }
    throw e;
  };
  const call = core.call.bind(core);
  core.call = (req, need) => call(req, need).catch(count);
  const completion = core.completion.bind(core);
  core.completion = (req) => completion(req).catch(count);
  const upload = core.uploadFile.bind(core);
  core.uploadFile = (token, input, opts) => upload(token, input, opts).catch(count);
  const login = core.login.bind(core);
  core.login = (acc, opts) =>
    login(acc, opts).then(
      (token) => {
        metrics.login(true);
        return token;
      },
      (e) => {
        if (!opts?.signal?.aborted) metrics.login(false);
        return count(e);
      },
    );
}
