// The gateway's Prometheus series (issue 20). One prom-client Registry per context, never the library's global
// one: tests run many gateways in one process and each must scrape only its own traffic.
// Label values are bounded on purpose: `model` is the resolved native id (a client's free-form name would let
// any caller grow the series without limit), `key` is a managed key's fingerprint or "passthrough" (pass-through
// tokens are core's, unbounded and not ours to track), `route` is the route template.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "./prom";
import type { RequestLogCounters } from "./request-log";

export interface PoolSnapshot {
  inUse: number;
  waiting: number;
  available: number;
  accounts: number;
  cooldown: number;
  loginFailing: number;
}

/** One managed account as the per-account gauges show it (issue 31): a masked label, never the identifier. */
export interface AccountGauge {
  label: string;
  inFlight: number;
  /** Exactly one of these (ops/account-states.ts). */
  state: "available" | "in_use" | "cooling_down" | "login_failed";
}

export const ACCOUNT_STATES = ["available", "in_use", "cooling_down", "login_failed"] as const;

export interface RequestFacts {
  surface: string;
  route: string;
  status: number;
  model: string;
  key: string;
  durationMs: number;
  ttfbMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  stream: boolean;
  aborted: boolean;
  /** The request's error code (a fixed set of the gateway's own), "" when it succeeded. */
  errorCode: string;
  /** Model calls: from arrival to the first piece of the answer (issue 31). */
  ttftMs?: number;
}

// Model calls take seconds to minutes; the default prom-client buckets stop at 10 s.
const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const POW_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"surface" | "route" | "status" | "model">;
  private readonly duration: Histogram<"surface" | "model" | "stream" | "status_class">;
  private readonly ttft: Histogram<"surface" | "model" | "stream">;
  private readonly ttfb: Histogram<"surface" | "route">;
  private readonly tokens: Counter<"direction" | "model" | "key">;
  private readonly coreFailures: Counter<"kind">;
  private readonly queueWait: Histogram<"outcome">;
  private readonly powSolve: Histogram<"outcome">;
  private readonly logins: Counter<"result">;
  private readonly aborted: Counter<"surface">;
  private readonly errors: Counter<"surface" | "code">;

  constructor(opts: { version: string; pool: () => PoolSnapshot; accounts?: () => AccountGauge[]; requestLog?: () => RequestLogCounters | undefined }) {
    const registers = [this.registry];
    const p = "svc_gateway_";
    // Process CPU, memory, file descriptors, event loop lag, GC (issue 31), on this registry only.
    collectDefaultMetrics({ register: this.registry, prefix: p });
    this.requests = new Counter({ name: `${p}requests_total`, help: "HTTP requests by surface, route template, status and resolved model.", labelNames: ["surface", "route", "status", "model"], registers });
    this.duration = new Histogram({ name: `${p}request_duration_seconds`, help: "Time from request arrival to the end of the response body, by the route's surface, resolved model, stream and status class.", labelNames: ["surface", "model", "stream", "status_class"], buckets: LATENCY_BUCKETS, registers });
    this.ttft = new Histogram({ name: `${p}time_to_first_token_seconds`, help: "Model calls: time from request arrival to the first piece of the answer (thinking, text or a tool call).", labelNames: ["surface", "model", "stream"], buckets: LATENCY_BUCKETS, registers });
    this.ttfb = new Histogram({ name: `${p}time_to_first_byte_seconds`, help: "Streams: time from request arrival to the first byte of the event stream.", labelNames: ["surface", "route"], buckets: LATENCY_BUCKETS, registers });
    this.tokens = new Counter({ name: `${p}tokens_total`, help: "Tokens by direction (input/output), resolved model and key fingerprint.", labelNames: ["direction", "model", "key"], registers });
    this.coreFailures = new Counter({ name: `${p}core_failures_total`, help: "Failed calls to core by failure kind (each retry counts).", labelNames: ["kind"], registers });
    this.queueWait = new Histogram({ name: `${p}queue_wait_seconds`, help: "Time a request waited for an account slot (0 when one was free).", labelNames: ["outcome"], buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300], registers });
    this.powSolve = new Histogram({ name: `${p}pow_solve_seconds`, help: "Proof-of-work search time in the worker pool.", labelNames: ["outcome"], buckets: POW_BUCKETS, registers });
    this.logins = new Counter({ name: `${p}logins_total`, help: "Account logins to core by result.", labelNames: ["result"], registers });
    this.aborted = new Counter({ name: `${p}streams_aborted_total`, help: "Responses the client went away from before the end.", labelNames: ["surface"], registers });
    this.errors = new Counter({ name: `${p}errors_total`, help: "Requests that ended in an error, by surface and error code (in-stream errors included).", labelNames: ["surface", "code"], registers });
    new Gauge({ name: `${p}build_info`, help: "Always 1; the version is the label.", labelNames: ["version"], registers }).set({ version: opts.version }, 1);
    const gauge = (name: string, help: string, read: (s: PoolSnapshot) => number) =>
      new Gauge({ name: `${p}${name}`, help, registers, collect() { this.set(read(opts.pool())); } });
    gauge("pool_in_use", "Account slots in use.", (s) => s.inUse);
    gauge("pool_waiting", "Requests waiting in the account queue.", (s) => s.waiting);
    gauge("pool_available", "Accounts with a free slot.", (s) => s.available);
    gauge("pool_accounts", "Configured managed accounts.", (s) => s.accounts);
    gauge("pool_accounts_cooldown", "Accounts in cooldown (a failed login or a rejected token).", (s) => s.cooldown);
    gauge("pool_accounts_login_failing", "Accounts whose last login or test failed.", (s) => s.loginFailing);
    const accounts = opts.accounts;
    if (accounts) {
      // Reset on each scrape: an account removed from the config must leave the series, not keep its last value.
      new Gauge({
        name: `${p}account_in_flight`, help: "Requests in flight per managed account (masked label).", labelNames: ["account"], registers,
        collect() {
          this.reset();
          for (const a of accounts()) this.set({ account: a.label }, a.inFlight);
        },
      });
      new Gauge({
        name: `${p}account_state`, help: "1 for the one state each managed account is in: available, in_use, cooling_down or login_failed.", labelNames: ["account", "state"], registers,
        collect() {
          this.reset();
          for (const a of accounts()) for (const st of ACCOUNT_STATES) this.set({ account: a.label, state: st }, a.state === st ? 1 : 0);
        },
      });
    }
    const rl = opts.requestLog;
    if (rl) {
      const counter = (name: string, help: string, read: (c: RequestLogCounters) => number) =>
        new Gauge({ name: `${p}${name}`, help, registers, collect() { this.set(read(rl() ?? { written: 0, failures: 0, dropped: 0 })); } });
      counter("request_log_written", "Rows the request log wrote since start.", (c) => c.written);
      counter("request_log_write_failures", "Failed request log batch writes since start (a full disk, a locked file); rows are retried.", (c) => c.failures);
      counter("request_log_dropped", "Request log rows given up since start (writes kept failing).", (c) => c.dropped);
    }
  }

  request(f: RequestFacts): void {
    const status = String(f.status);
    this.requests.inc({ surface: f.surface, route: f.route, status, model: f.model });
    const stream = f.stream ? "true" : "false";
    this.duration.observe({ surface: f.surface, model: f.model, stream, status_class: `${Math.floor(f.status / 100)}xx` }, f.durationMs / 1000);
    if (f.ttftMs !== undefined) this.ttft.observe({ surface: f.surface, model: f.model, stream }, f.ttftMs / 1000);
    if (f.stream && f.ttfbMs !== undefined) this.ttfb.observe({ surface: f.surface, route: f.route }, f.ttfbMs / 1000);
    if (f.inputTokens) this.tokens.inc({ direction: "input", model: f.model, key: f.key }, f.inputTokens);
    if (f.outputTokens) this.tokens.inc({ direction: "output", model: f.model, key: f.key }, f.outputTokens);
    if (f.aborted) this.aborted.inc({ surface: f.surface });
    if (f.errorCode) this.errors.inc({ surface: f.surface, code: f.errorCode });
  }

  coreFailure(kind: string): void {
    this.coreFailures.inc({ kind });
  }

  queueWaited(ms: number, outcome: "granted" | "rejected"): void {
    this.queueWait.observe({ outcome }, ms / 1000);
  }

  powSolved(ms: number, outcome: "solved" | "unsolvable" | "failed"): void {
    this.powSolve.observe({ outcome }, ms / 1000);
  }

  login(ok: boolean): void {
    this.logins.inc({ result: ok ? "ok" : "failed" });
  }

  contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
