// A request's timeline for the request log (issue 31): when each phase started and how long it took, in
// milliseconds from the request's arrival. It is filled from the outside — the turn service times the queue
// and the login, a thin per-request view of the core client times session creation and the PoW, the turn's
// facts stage marks the first token — so the pool, the core client and the runner carry no timing code.
// Phases that repeat (a retry, an account switch) add their time to one phase and keep the first start.
import type { CoreClient } from "../core/client";
import type { RoundInfo } from "../core/completion";

export type PhaseName = "queue" | "login" | "session" | "pow";
export const PHASES: readonly PhaseName[] = ["queue", "login", "session", "pow"];

export interface Phase {
  start_ms: number;
  ms: number;
}

/** The stored form (JSON in the request log). Marks are offsets from arrival; absent = never happened. */
export interface TimelineJson {
  queue?: Phase;
  login?: Phase;
  session?: Phase;
  pow?: Phase;
  core_first_byte_ms?: number;
  first_token_ms?: number;
  last_byte_ms?: number;
  total_ms: number;
}

export interface Attempts {
  /** Accounts leased (1 for a request served by its first account; 0 in pass-through or before a lease). */
  accounts: number;
  /** Completion calls to core (retries on one account included). */
  core_attempts: number;
  empty_output_retries: number;
  continue_rounds: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * round1(n) as JSON text, from integers: turning a fractional double into text (the shortest round-trip digits)
 * was a fifth of a row's cost in a profile, an integer's is a table lookup. "12" for 12.0, as JSON.stringify.
 */
export function text1(n: number): string {
  const t = Math.round(n * 10);
  if (!(t >= 0 && t <= Number.MAX_SAFE_INTEGER)) return String(t / 10);
  const whole = Math.floor(t / 10);
  const tenth = t - whole * 10;
  return tenth === 0 ? String(whole) : `${whole}.${tenth}`;
}

/**
 * Each phase's two fields on a Timeline: its first start and its summed time (start NaN: it never happened). Read by
 * index, not destructured: `add` runs several times per request, and array destructuring goes through an iterator.
 */
const FIELDS = {
  queue: ["queueAt", "queueTook"],
  login: ["loginAt", "loginTook"],
  session: ["sessionAt", "sessionTook"],
  pow: ["powAt", "powTook"],
} as const satisfies Record<PhaseName, readonly [string, string]>;

/**
 * A request's marks as plain number fields of one object, its attempt counters included (`attempts` is the
 * timeline itself): an open stream holds its timeline for as long as it lasts, and a map of phase objects plus a
 * counters object were five or six objects of it (issue 35, target 2).
 */
export class Timeline implements Attempts {
  private queueAt = NaN;
  private queueTook = 0;
  private loginAt = NaN;
  private loginTook = 0;
  private sessionAt = NaN;
  private sessionTook = 0;
  private powAt = NaN;
  private powTook = 0;
  coreFirstByte?: number;
  firstToken?: number;
  lastByte?: number;
  accounts = 0;
  core_attempts = 0;
  empty_output_retries = 0;
  continue_rounds = 0;

  /** `origin` is the request's arrival on performance.now()'s clock. */
  constructor(private readonly origin: number) {}

  /** The attempt counters (this object's own fields, read by the request log and counted by the turn). */
  get attempts(): Attempts {
    return this;
  }

  at(): number {
    return performance.now() - this.origin;
  }

  add(name: PhaseName, startAt: number, endAt: number): void {
    const f = FIELDS[name];
    if (Number.isNaN(this[f[0]])) this[f[0]] = startAt;
    this[f[1]] += endAt - startAt;
  }

  /**
   * Times a promise as one phase (its failure too: a failed login took its time). The work is handed over started
   * (its synchronous first steps, µs, fall before the phase), and awaited here: no closures per phase, of which a
   * request times four (issue 35, CPU per request).
   */
  async time<T>(name: PhaseName, work: Promise<T>): Promise<T> {
    const start = this.at();
    try {
      return await work;
    } finally {
      this.add(name, start, this.at());
    }
  }

  markFirstToken(): void {
    this.firstToken ??= this.at();
  }

  markLastByte(): void {
    this.lastByte = this.at();
  }

  toJSON(totalMs: number): TimelineJson {
    const out: TimelineJson = { total_ms: round1(totalMs) };
    for (const n of PHASES) {
      const p = this.phase(n);
      if (p) out[n] = { start_ms: round1(p.start_ms), ms: round1(p.ms) };
    }
    if (this.coreFirstByte !== undefined) out.core_first_byte_ms = round1(this.coreFirstByte);
    if (this.firstToken !== undefined) out.first_token_ms = round1(this.firstToken);
    if (this.lastByte !== undefined) out.last_byte_ms = round1(this.lastByte);
    return out;
  }

  /**
   * The stored form as JSON text, built by concatenation on the request's end (issue 31's cost budget: no object
   * per phase, no JSON.stringify). The same fields as toJSON's; `firstTokenMs` is the first-token mark to store.
   */
  jsonText(totalMs: number, firstTokenMs: number | undefined): string {
    let s = `{"total_ms":${text1(totalMs)}`;
    for (const n of PHASES) {
      const f = FIELDS[n];
      if (!Number.isNaN(this[f[0]])) s += `,"${n}":{"start_ms":${text1(this[f[0]])},"ms":${text1(this[f[1]])}}`;
    }
    if (this.coreFirstByte !== undefined) s += `,"core_first_byte_ms":${text1(this.coreFirstByte)}`;
    if (firstTokenMs !== undefined) s += `,"first_token_ms":${text1(firstTokenMs)}`;
    if (this.lastByte !== undefined) s += `,"last_byte_ms":${text1(this.lastByte)}`;
    return `${s}}`;
  }

  /** The first-token mark as stored (rounded), undefined when there is none. */
  firstTokenMs(): number | undefined {
    return this.firstToken === undefined ? undefined : round1(this.firstToken);
  }

  /** The queue phase's time as stored, null when the request never queued. */
  queueMs(): number | null {
    return Number.isNaN(this.queueAt) ? null : round1(this.queueTook);
  }

  phase(name: PhaseName): Phase | undefined {
    const f = FIELDS[name];
    return Number.isNaN(this[f[0]]) ? undefined : { start_ms: this[f[0]], ms: this[f[1]] };
  }
}

/** Per core client, the prototype of its timed views: their methods are shared, not made per request (issue 35). */
const timedProtos = new WeakMap<CoreClient, CoreClient>();
const TL = Symbol("timeline");
type TimedView = CoreClient & { [TL]: Timeline };

/**
 * The core client as one request's attempt sees it: session creation and the completion's PoW timed, completion
 * calls counted. A prototype view, not a copy: everything else (and every wrapper instrument.ts put on the
 * instance) is the shared client's. The view is one object holding the timeline; its three methods live on a
 * prototype made once per client.
 */
export function timedCore(core: CoreClient, tl: Timeline | undefined): CoreClient {
  if (!tl) return core;
  let proto = timedProtos.get(core);
  if (!proto) timedProtos.set(core, (proto = timedProto(core)));
  const view = Object.create(proto) as TimedView;
  view[TL] = tl;
  return view;
}

function timedProto(core: CoreClient): CoreClient {
  const proto = Object.create(core) as CoreClient;
  proto.createSession = function (this: TimedView, token, opts) {
    return this[TL].time("session", core.createSession(token, opts));
  };
  proto.solvePow = function (this: TimedView, token, target, opts) {
    return this[TL].time("pow", core.solvePow(token, target, opts));
  };
  proto.completion = function (this: TimedView, req) {
    this[TL].attempts.core_attempts += 1;
    return core.completion(req);
  };
  return proto;
}

/** A round of core's answer began: its head marks core's first byte; continue rounds are counted. */
export function markRound(tl: Timeline, round: RoundInfo): void {
  if (round.label === "continue") tl.attempts.continue_rounds += 1;
  // The answer's own attempt wins over one that failed before it: overwritten on each completion round.
  else tl.coreFirstByte = tl.at();
}
