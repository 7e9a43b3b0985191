// The pipeline run (ARCHITECTURE.md): TurnRequest → prompt → lease → core stream → sseDecode → coreReduce →
// detector → TurnEvents. It owns the account lease for the whole life of the stream and releases it exactly
// once, when core's last body has ended or the client went away (D8.8); it switches accounts on the
// failures of D8.10 and retries an empty output once (D9.6).
import { GatewayError } from "../http/errors";
import type { Lease } from "../accounts/pool";
import { LoginFailedError } from "../accounts/manager";
import type { TurnEvent, TurnRequest } from "./types";
import type { AssemblerReport } from "./turn-assembler";
import type { Caller } from "../http/business-auth";

/** What one attempt on one account produced: core accepted the completion. */
export interface StartedAttempt {
  sessionId: string;
  account: string | null;
  events: ReadableStream<TurnEvent>;
  report: AssemblerReport;
  promptTokens: number;
  /** The prompt text sent to core (chat history). */
  finalPrompt?: string;
}

/** One attempt on a given account (or the caller's token): upload, session, PoW, completion. */
export type AttemptFn = (args: {
  account: string | null;
  token: string;
  forceFileMode: boolean;
  signal: AbortSignal;
}) => Promise<StartedAttempt>;

export interface RunDeps {
  attempt: AttemptFn;
  acquire(opts: { pinned?: string; exclude: Set<string>; signal: AbortSignal }): Promise<Lease>;
  token(account: string, opts: { forceLogin?: boolean; signal: AbortSignal }): Promise<string>;
  invalidateToken(account: string): void;
  /** After the client response is complete and core's body has ended (D8.13). */
  afterTurn(args: { account: string | null; token: string; sessionId: string }): void;
  /** File affinity (D8.14): the account that owns the referenced files, if any. */
  pinnedByFiles?: string;
  fileModeAvailable: boolean;
  accountCount(): number;
  log: { warn(msg: string, f?: Record<string, unknown>): void };
}

export interface RunningTurn {
  events: ReadableStream<TurnEvent>;
  sessionId: string;
  /** The prompt text core received (chat history, D12.4). */
  finalPrompt?: string;
  account: string | null;
  promptTokens: number;
  report(): AssemblerReport;
}

const MAX_ACCOUNTS = 3;

export interface CoreFailure extends Error {
  kind: string;
}

function isCoreFailure(e: unknown): e is CoreFailure {
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

/** Kinds where another account can help (D8.10); the rest fail the request at once. */
const SWITCHABLE = new Set(["upstream_error", "upstream_busy", "upstream_pow_failed", "upstream_rate_limited", "upstream_auth", "upstream_empty_output"]);

export async function runTurn(deps: RunDeps, req: TurnRequest, caller: Caller, signal: AbortSignal): Promise<RunningTurn> {
  const pinned = caller.pinned ?? deps.pinnedByFiles;
  const tried = new Set<string>();

  /** One account-level try, with the D8.10 login and file-mode rules; returns the attempt and its lease. */
  const startOn = async (exclude: Set<string>): Promise<{ started: StartedAttempt; lease: Lease | null; token: string; ended: Promise<void> }> => {
    let lastError: unknown = null;
    let loginFailures = 0;
    for (let n = 0; n < MAX_ACCOUNTS; n++) {
      const lease = caller.mode === "managed" ? await deps.acquire({ pinned, exclude, signal }) : null;
      const account = lease?.account ?? null;
      let token = caller.token;
      let forceFileMode = false;
      let reloggedIn = false;
      for (;;) {
        try {
          if (account) token = await deps.token(account, { signal, forceLogin: reloggedIn });
          const started = await deps.attempt({ account, token, forceFileMode, signal });
          return { started, lease, token, ended: attachEnd(started) };
        } catch (e) {
          lastError = e;
          if (!isCoreFailure(e) && !(e instanceof LoginFailedError) && !(e instanceof GatewayError))
            deps.log.warn("core attempt failed unexpectedly", { error: String((e as Error)?.stack ?? e) });
          if (signal.aborted) {
            lease?.release();
            throw e;
          }
          if (e instanceof LoginFailedError) {
            loginFailures++;
            break;
          }
          if (isCoreFailure(e)) {
            if (e.kind === "upstream_auth" && account && !reloggedIn) {
              // D8.9: a token core rejects is cleared and one fresh login is tried.
              deps.invalidateToken(account);
              reloggedIn = true;
              continue;
            }
            if (e.kind === "input_exceeds_limit" && !forceFileMode && deps.fileModeAvailable) {
              forceFileMode = true;
              continue;
            }
          }
          break;
        }
      }
      lease?.release();
      if (!account || pinned || !(isCoreFailure(lastError) ? SWITCHABLE.has(lastError.kind) : lastError instanceof LoginFailedError)) break;
      exclude.add(account);
    }
    if (loginFailures > 0 && !isCoreFailure(lastError)) throw new GatewayError(503, "upstream_auth_failed", "Every candidate account failed to log in.");
    throw clientError(lastError, caller.mode);
  };

  const first = await startOn(tried);
  let current = first;
  if (current.started.account) tried.add(current.started.account);
  let retried = false;

  const endOf = (c: typeof current) => {
    // The slot is held until core's body has ended, then clean-up runs detached (D8.13).
    c.ended.then(() => {
      c.lease?.release();
      deps.afterTurn({ account: c.started.account, token: c.token, sessionId: c.started.sessionId });
    });
  };
  endOf(current);

  let reader = current.started.events.getReader();
  const events = new ReadableStream<TurnEvent>(
    {
      async pull(controller) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            return;
          }
          const report = current.started.report;
          if (
            value.type === "error" &&
            value.code === "upstream_empty_output" &&
            !retried &&
            !report.emittedVisible &&
            !report.emittedThinking
          ) {
            // D9.6: nothing reached the client yet, so one retry on another account is invisible to it.
            retried = true;
            // Another eligible account; the same one when pinned or when it is the only one (D9.6).
            const others = deps.accountCount() > 1 && !pinned ? new Set(tried) : new Set<string>();
            try {
              const next = await startOn(others);
              current = next;
              if (next.started.account) tried.add(next.started.account);
              endOf(current);
              reader = current.started.events.getReader();
              continue;
            } catch (e) {
              const err = clientError(e, caller.mode);
              controller.enqueue({ type: "error", status: err.status, code: "upstream_empty_output", message: "Core returned an empty answer." });
              controller.close();
              return;
            }
          }
          controller.enqueue(value);
          return;
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );

  return {
    events,
    sessionId: first.started.sessionId,
    finalPrompt: first.started.finalPrompt,
    account: first.started.account,
    promptTokens: first.started.promptTokens,
    report: () => current.started.report,
  };
}

/** Resolves when the attempt's event stream has ended: read to its end, errored, or cancelled. */
function attachEnd(started: StartedAttempt): Promise<void> {
  return new Promise<void>((resolve) => {
    const original = started.events;
    const reader = original.getReader();
    started.events = new ReadableStream<TurnEvent>(
      {
        async pull(c) {
          try {
            const { done, value } = await reader.read();
            if (done) {
              c.close();
              resolve();
              return;
            }
            c.enqueue(value);
          } catch (e) {
            c.error(e);
            resolve();
          }
        },
        async cancel(reason) {
          await reader.cancel(reason).catch(() => {});
          resolve();
        },
      },
      { highWaterMark: 0 },
    );
  });
}
