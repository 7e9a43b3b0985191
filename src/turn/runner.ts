// The turn runner (ARCHITECTURE.md, src/turn/): TurnRequest → prompt → lease → core frames → the pipeline's
// stages → TurnEvents. It owns the account lease for the whole life of the stream and releases it exactly
// once, when core's last body has ended or the client went away (D8.8). Its parts, each in a file of its own:
// the turn's lifetime and start deadline (turn-life.ts), leasing with account switching (account-failover.ts,
// D8.9/D8.10), the attempt holding the lease (live-attempt.ts), reading the events (turn-reader.ts) and the
// empty-output retry (empty-output-retry.ts, D9.6).
import type { TurnEvent, TurnRequest } from "../pipeline/types";
import type { Caller } from "../accounts/caller";
import { startOnAccounts, type Failover } from "./account-failover";
import { EmptyOutputRetry, retryExclude } from "./empty-output-retry";
import { DEFAULT_TOTAL_TIMEOUT_MS } from "./start-deadline";
import { TurnLife } from "./turn-life";
import { TurnReader } from "./turn-reader";
import type { RunDeps, RunningTurn } from "./types";

export async function runTurn(deps: RunDeps, req: TurnRequest, caller: Caller, signal: AbortSignal): Promise<RunningTurn> {
  const pinned = caller.pinned ?? deps.pinnedByFiles;
  const life = new TurnLife(signal, deps.totalTimeoutMs ?? DEFAULT_TOTAL_TIMEOUT_MS);
  const failover: Failover = { deps, caller, pinned, life };
  /** Accounts this turn used or failed on: the empty-output retry looks for another (D9.6). */
  const tried = new Set<string>();
  try {
    life.current = await startOnAccounts(failover, tried);
  } catch (e) {
    life.deadline.disarm();
    life.detach();
    throw e;
  }
  const first = life.current;
  if (life.ended) first.settle();
  if (first.started.account) tried.add(first.started.account);

  const source = new TurnReader({
    life,
    retry: new EmptyOutputRetry(deps),
    async restart() {
      const next = await startOnAccounts(failover, retryExclude({ pinned, tried, accountCount: () => deps.accountCount(), hasCandidate: (x) => deps.hasCandidate(x) }));
      next.started.finalPrompt = undefined;
      if (next.started.account) tried.add(next.started.account);
      return next;
    },
    onRetry: () => deps.onEmptyOutputRetry?.(),
  });

  // The prompt is handed to the caller once (chat history) and not kept by the attempt for the stream's life.
  const finalPrompt = first.started.finalPrompt;
  first.started.finalPrompt = undefined;
  return {
    events: turnEvents(source),
    sessionId: first.started.sessionId,
    finalPrompt,
    account: first.started.account,
    promptTokens: first.started.promptTokens,
  };
}

/**
 * The runner's stream: the turn's events, a batch per chunk, pulled as whoever reads asks (backpressure reaches
 * core). It is the one place a turn ends: the turn reader settles the lease at the answer's last event, on a
 * failure, and when this stream is cancelled (the client went away: the cancel runs back through every stage).
 */
function turnEvents(reader: TurnReader): ReadableStream<TurnEvent[]> {
  return new ReadableStream<TurnEvent[]>(
    {
      async pull(controller) {
        let batch: TurnEvent[] | null;
        try {
          batch = await reader.next();
        } catch (e) {
          controller.error(e);
          return;
        }
        if (batch === null) controller.close();
        else controller.enqueue(batch);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
