// The gateway's Prometheus series (issue 20). One prom-client Registry per context, never the library's global
// one: tests run many gateways in one process and each must scrape only its own traffic.
// Label values are bounded on purpose: `model` is the resolved native id (a client's free-form name would let
// any caller grow the series without limit), `key` is a managed key's fingerprint or "passthrough" (pass-through
// tokens are core's, unbounded and not ours to track), `route` is the route template.
import { Counter, CounterSeries, Gauge, Histogram, HistogramSeries, loadDefaultMetrics, Registry } from "./prom";
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

const PREFIX = "svc_gateway_";
// Joins label values into a series key (prom.ts CounterSeries): no label value the gateway sets contains it.
const S = "\u0000";
const STATUS_CLASSES = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

export class GatewayMetrics {
  /** The gateway's own series. */
  readonly registry = new Registry();
  /**
   * Process CPU, memory, file descriptors, event loop lag, GC (issue 31), on a registry of their own, exposed
   * first as when they shared one. Set up by `startProcessMetrics` once the server listens (or by the first
   * scrape): their module and monitors are not on a start's path to ready (issue 35).
   */
  private processRegistry?: Registry;
  private readonly requests: CounterSeries<"surface" | "route" | "status" | "model">;
  private readonly duration: HistogramSeries<"surface" | "model" | "stream" | "status_class">;
  private readonly ttft: HistogramSeries<"surface" | "model" | "stream">;
  private readonly ttfb: HistogramSeries<"surface" | "route">;
  private readonly tokens: CounterSeries<"direction" | "model" | "key">;
  private readonly coreFailures: Counter<"kind">;
  private readonly queueWait: Histogram<"outcome">;
  private readonly powSolve: Histogram<"outcome">;
  private readonly logins: Counter<"result">;
  private readonly aborted: CounterSeries<"surface">;
  private readonly errors: CounterSeries<"surface" | "code">;

  constructor(opts: { version: string; pool: () => PoolSnapshot; accounts?: () => AccountGauge[]; requestLog?: () => RequestLogCounters | undefined }) {
    const registers = [this.registry];
    const p = PREFIX;
    this.requests = new CounterSeries(new Counter({ name: `${p}requests_total`, help: "HTTP requests by surface, route template, status and resolved model.", labelNames: ["surface", "route", "status", "model"], registers }));
    this.duration = new HistogramSeries(new Histogram({ name: `${p}request_duration_seconds`, help: "Time from request arrival to the end of the response body, by the route's surface, resolved model, stream and status class.", labelNames: ["surface", "model", "stream", "status_class"], buckets: LATENCY_BUCKETS, registers }));
    this.ttft = new HistogramSeries(new Histogram({ name: `${p}time_to_first_token_seconds`, help: "Model calls: time from request arrival to the first piece of the answer (thinking, text or a tool call).", labelNames: ["surface", "model", "stream"], buckets: LATENCY_BUCKETS, registers }));
    this.ttfb = new HistogramSeries(new Histogram({ name: `${p}time_to_first_byte_seconds`, help: "Streams: time from request arrival to the first byte of the event stream.", labelNames: ["surface", "route"], buckets: LATENCY_BUCKETS, registers }));
    this.tokens = new CounterSeries(new Counter({ name: `${p}tokens_total`, help: "Tokens by direction (input/output), resolved model and key fingerprint.", labelNames: ["direction", "model", "key"], registers }));
    this.coreFailures = new Counter({ name: `${p}core_failures_total`, help: "Failed calls to core by failure kind (each retry counts).", labelNames: ["kind"], registers });
    this.queueWait = new Histogram({ name: `${p}queue_wait_seconds`, help: "Time a request waited for an account slot (0 when one was free).", labelNames: ["outcome"], buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 10, 30, 60, 300], registers });
    this.powSolve = new Histogram({ name: `${p}pow_solve_seconds`, help: "Proof-of-work search time in the worker pool.", labelNames: ["outcome"], buckets: POW_BUCKETS, registers });
    this.logins = new Counter({ name: `${p}logins_total`, help: "Account logins to core by result.", labelNames: ["result"], registers });
    this.aborted = new CounterSeries(new Counter({ name: `${p}streams_aborted_total`, help: "Responses the client went away from before the end.", labelNames: ["surface"], registers }));
    this.errors = new CounterSeries(new Counter({ name: `${p}errors_total`, help: "Requests that ended in an error, by surface and error code (in-stream errors included).", labelNames: ["surface", "code"], registers }));
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

  // Every request: the label values joined into one key per series; prom-client's own work (and a label
  // object) only on a label set's first observation (prom.ts).
  request(f: RequestFacts): void {
    const { surface, route, model, key, status } = f;
    const stream = f.stream ? "true" : "false";
    let k = surface + S + route + S + status + S + model;
    if (!this.requests.inc(k, 1)) this.requests.first(k, { surface, route, status: String(status), model }, 1);
    const statusClass = STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;
    let v = f.durationMs / 1000;
    k = surface + S + model + S + stream + S + statusClass;
    if (!this.duration.observe(k, v)) this.duration.first(k, { surface, model, stream, status_class: statusClass }, v);
    if (f.ttftMs !== undefined) {
      v = f.ttftMs / 1000;
      k = surface + S + model + S + stream;
      if (!this.ttft.observe(k, v)) this.ttft.first(k, { surface, model, stream }, v);
    }
    if (f.stream && f.ttfbMs !== undefined) {
      v = f.ttfbMs / 1000;
      k = surface + S + route;
      if (!this.ttfb.observe(k, v)) this.ttfb.first(k, { surface, route }, v);
    }
    if (f.inputTokens) {
      k = "input" + S + model + S + key;
      if (!this.tokens.inc(k, f.inputTokens)) this.tokens.first(k, { direction: "input", model, key }, f.inputTokens);
    }
    if (f.outputTokens) {
      k = "output" + S + model + S + key;
      if (!this.tokens.inc(k, f.outputTokens)) this.tokens.first(k, { direction: "output", model, key }, f.outputTokens);
    }
    if (f.aborted && !this.aborted.inc(surface, 1)) this.aborted.first(surface, { surface }, 1);
    const code = f.errorCode;
    if (code) {
      k = surface + S + code;
      if (!this.errors.inc(k, 1)) this.errors.first(k, { surface, code }, 1);
    }
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

  /** Registers the process metrics and starts their monitors (event loop delay, GC); idempotent. */
  startProcessMetrics(): void {
    if (this.processRegistry) return;
    const register = new Registry();
    this.processRegistry = register;
    const before = process.cpuUsage();
    loadDefaultMetrics()({ register, prefix: PREFIX });
    // prom-client counts CPU from the moment it is set up; the process's CPU before that is added once, so that
    // process_cpu_*_seconds_total count from the process's start, as the names promise (and as they did, near
    // enough, when this ran while the context was built).
    const add = (name: string, micros: number) => (register.getSingleMetric(`${PREFIX}${name}`) as Counter | undefined)?.inc(micros / 1e6);
    add("process_cpu_user_seconds_total", before.user);
    add("process_cpu_system_seconds_total", before.system);
    add("process_cpu_seconds_total", before.user + before.system);
  }

  contentType(): string {
    return this.registry.contentType;
  }

  async text(): Promise<string> {
    this.startProcessMetrics();
    // Registry.metrics() joins metrics with a blank line and ends with a newline: the two texts joined the
    // same way read exactly as one registry holding both.
    const [proc, own] = await Promise.all([this.processRegistry!.metrics(), this.registry.metrics()]);
    return `${proc}\n${own}`;
  }
}
