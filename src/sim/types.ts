// Public types of the core simulator: switches (core-upstream §12.4), accounts, scenario scripts (§12.6),
// queue entries (§12.8) and what the test/ops API reports (§12.10).

export type WriteMode = "event" | "coalesce" | "random" | "byte";
export type Compression = "none" | "gzip" | "br";
export type ExpiryForm = "http401" | "http403" | "code40003" | "bizMsg" | "bizMsgZh";
export type Chunk = "word" | "char" | "whole" | number | string[];

/** Everything that can be changed at start or at runtime with `set` / `POST /_sim/config`. */
export interface SimSwitches {
  difficulty: number;
  powTtlS: number;
  powSingleUse: boolean;
  powRejectForm: "http400" | "envelope200";
  powAlgorithm: string;
  powHeader: string;
  /** Tokens expire this many ms after issue; null = never. */
  tokenTtlMs: number | null;
  expiryForm: ExpiryForm;
  sessionShape: "id" | "nested" | "alternate";
  busyForm: "json" | "sse";
  busyTailMs: number;
  fileInstantReady: boolean;
  filePolls: number;
  fileFailure: boolean;
  requireIdentity: boolean;
  compression: Compression;
  write: WriteMode;
  firstByteDelayMs: number;
  open: boolean;
  clock: "real" | "virtual";
  /** Seeded gaps between fragment ids (core's ids are increasing but not dense). */
  idGaps: boolean;
  /** Leave `model_type` out of `ready` (the oldest streams). */
  omitModelType: boolean;
}

export interface SimAccount {
  email?: string;
  mobile?: string;
  password: string;
  /** A token that is valid from the start (as if issued by a login before the simulator started). */
  token?: string;
  device_id?: string;
}

export interface SimOptions extends Partial<SimSwitches> {
  port?: number;
  /** Listen address; loopback unless `svc-gateway sim --host`/SVC_HOST asks otherwise (issue 33). */
  hostname?: string;
  seed?: number;
  accounts?: SimAccount[];
  /** Start of the virtual clock, float seconds. */
  epoch?: number;
  /** Requests the log keeps at least (default 20,000; the demo and the `sim` command keep fewer: docs/simulator.md). */
  requestLog?: number;
}

export type StepValue = unknown;
/** One step: its kind is the first key that names a step (§12.5); other keys are modifiers (`stage`, `chunk`…). */
export type Step = Record<string, StepValue>;

export type Round = { http: { status: number; json?: unknown; text?: string } } | { unseen?: string; steps: Step[] };

export interface ScenarioScript {
  name: string;
  seed?: number;
  shape?: "older" | "newer";
  defaults?: { chunk?: Chunk; delay_ms?: number; jitter_ms?: number };
  transport?: { write?: WriteMode; compression?: Compression };
  rounds: Round[];
  /** Message ids to use instead of the session's next ones (a replayed capture names its own in `ready`). */
  messageIds?: { request: number; response: number };
}

export type Params = Record<string, unknown>;

export interface QueueMatch {
  account?: string;
  session?: string;
  model_type?: string;
  thinking_enabled?: boolean;
  search_enabled?: boolean;
  /** Every one of these strings occurs in the prompt (or in a referenced file's text). */
  prompt_includes?: string[];
}

export interface EnqueueEntry {
  scenario?: string;
  params?: Params;
  script?: ScenarioScript;
  match?: QueueMatch;
  times?: number;
}

export interface PowCheck {
  valid: boolean;
  reason: string;
}

export interface RecordedRequest {
  seq: number;
  at: number;
  method: string;
  path: string;
  query: string;
  account: string | null;
  session_id: string | null;
  pow?: PowCheck;
  headers: { user_agent: string | null; client_platform: string | null; client_version: string | null; client_locale: string | null };
  body: any;
  /** The scenario that answered a completion or continue. */
  scenario?: string;
}

export interface RequestFilter {
  path?: string;
  method?: string;
  account?: string;
  session_id?: string;
  since?: number;
}

export interface SimCounters {
  logins: number;
  login_failures: number;
  pow_issued: number;
  pow_rejected: number;
  busy_rejections: number;
  deleted_while_live: number;
  delete_calls: number;
  delete_all_calls: number;
  completions: number;
  continues: number;
  uploads: number;
  file_polls: number;
}

export const zeroCounters = (): SimCounters => ({
  logins: 0,
  login_failures: 0,
  pow_issued: 0,
  pow_rejected: 0,
  busy_rejections: 0,
  deleted_while_live: 0,
  delete_calls: 0,
  delete_all_calls: 0,
  completions: 0,
  continues: 0,
  uploads: 0,
  file_polls: 0,
});

export const DEFAULT_SWITCHES: SimSwitches = {
  difficulty: 144000,
  powTtlS: 300,
  powSingleUse: false,
  powRejectForm: "http400",
  powAlgorithm: "CoreHashV1",
  powHeader: "x-core-pow-response",
  tokenTtlMs: null,
  expiryForm: "http401",
  sessionShape: "alternate",
  busyForm: "json",
  busyTailMs: 0,
  fileInstantReady: false,
  filePolls: 1,
  fileFailure: false,
  requireIdentity: false,
  compression: "none",
  write: "event",
  firstByteDelayMs: 0,
  open: false,
  // Real by default: the gateway compares PoW expiry with its own wall clock.
  clock: "real",
  idGaps: false,
  omitModelType: false,
};
