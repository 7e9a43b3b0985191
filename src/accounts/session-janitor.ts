// auto_delete (D8.13, core-upstream §10.5): after the client response is complete and core's body has ended,
// detached from the client, with a 10 s timeout; failures are only logged. `all` never deletes a session that
// another request of the same account still uses: it falls back to `single` unless the account is idle, and
// holds the account out of new requests while delete_all runs.
import type { ConfigStore } from "../config/store";
import { effectiveAutoDelete } from "../config/effective";
import type { Logger } from "../util/log";
import type { Pool } from "./pool-api";
import { classifyFailure, maskIdentifier } from "./health-classes";

export interface SessionDeleter {
  deleteSession(token: string, sessionId: string, opts: { account: string | null; signal: AbortSignal }): Promise<void>;
  deleteAllSessions(token: string, opts: { account: string | null; signal: AbortSignal }): Promise<void>;
}

const DELETE_TIMEOUT_MS = 10_000;

export class SessionJanitor {
  constructor(
    private readonly opts: { config: ConfigStore; pool: Pool; core: SessionDeleter; log: Logger; timeoutMs?: number },
  ) {}

  afterTurn(args: { account: string | null; token: string; sessionId: string; mode: "managed" | "passthrough" }): void {
    const mode = effectiveAutoDelete(this.opts.config.get()).mode;
    if (mode === "none" || !args.sessionId) return;
    void this.run(mode, args).catch((e) =>
      this.opts.log.warn("auto_delete failed", { account: args.account ? maskIdentifier(args.account) : "", class: classifyFailure(e)?.cls ?? "", error: String((e as Error).message) }),
    );
  }

  private async run(mode: "single" | "all", args: { account: string | null; token: string; sessionId: string; mode: string }): Promise<void> {
    const signal = AbortSignal.timeout(this.opts.timeoutMs ?? DELETE_TIMEOUT_MS);
    const account = args.account;
    // Pass-through callers cannot know what else uses the token, so `all` acts as `single`.
    if (mode === "all" && account && args.mode === "managed" && this.opts.pool.inFlight(account) === 0) {
      this.opts.pool.holdOut(account, true);
      try {
        await this.opts.core.deleteAllSessions(args.token, { account, signal });
      } finally {
        this.opts.pool.holdOut(account, false);
      }
      return;
    }
    await this.opts.core.deleteSession(args.token, args.sessionId, { account, signal });
  }
}
