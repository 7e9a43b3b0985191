// The turn runner (ARCHITECTURE.md, src/turn/): TurnRequest → prompt → lease → core frames → the pipeline's
// stages → TurnEvents. It owns the account lease for the whole life of the stream and releases it exactly
// once, when core's last body has ended or the client went away (D8.8). Its parts, each in a file of its own:
// the turn's lifetime and start deadline (turn-life.ts), leasing with account switching (account-failover.ts,
// D8.9/D8.10), the attempt holding the lease (live-attempt.ts), reading the events (turn-reader.ts) and the
// empty-output retry (empty-output-retry.ts, D9.6).
import type { TurnRequest } from "../pipeline/types";
import type { Caller } from "../accounts/caller";
import { startOnAccounts, type Failover } from "./account-failover";
import { EmptyOutputRetry, retryExclude } from "./empty-output-retry";
import { DEFAULT_TOTAL_TIMEOUT_MS } from "./start-deadline";
import { TurnLife } from "./turn-life";
import { TurnReader, type TurnReaderParts } from "./turn-reader";
import type { LiveAttempt } from "./live-attempt";
import { StagedTurn } from "./staged-turn";
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

  const source = new TurnReader(new Restarts(life, new EmptyOutputRetry(deps), deps, failover, tried));

  // The prompt is handed to the caller once (chat history) and not kept by the attempt for the stream's life.
  const finalPrompt = first.started.finalPrompt;
  first.started.finalPrompt = undefined;
  // The runner's stream: the turn's events, a batch per chunk, pulled as whoever reads asks (backpressure reaches
  // core), with the stages the surface adds before reading run inside it (staged-turn.ts). It is the one place a
  // turn ends: the turn reader settles the lease at the answer's last event, on a failure, and when the stream
  // is cancelled (the client went away: the cancel runs back through every stage).
  return new StagedTurn(source, first.started.sessionId, first.started.account, first.started.promptTokens, finalPrompt);
}

/**
 * The turn reader's parts: the retry's restart on another account (D9.6) as methods of one object, not closures
 * over the runner's scope (an open stream keeps them for as long as it lives; issue 35).
 */
class Restarts implements TurnReaderParts {
  constructor(
    readonly life: TurnLife,
    readonly retry: EmptyOutputRetry,
    private readonly deps: RunDeps,
    private readonly failover: Failover,
    /** Accounts this turn used or failed on: the empty-output retry looks for another (D9.6). */
    private readonly tried: Set<string>,
  ) {}

  async restart(): Promise<LiveAttempt> {
    const { deps } = this;
    const exclude = retryExclude({ pinned: this.failover.pinned, tried: this.tried, accountCount: () => deps.accountCount(), hasCandidate: (x) => deps.hasCandidate(x) });
    const next = await startOnAccounts(this.failover, exclude);
    next.started.finalPrompt = undefined;
    if (next.started.account) this.tried.add(next.started.account);
    return next;
  }

  onRetry(): void {
    this.deps.onEmptyOutputRetry?.();
  }
}
