// Per-request facts gathered along the way and written as one log line when the response ends (D3.6), then
// handed to the metrics, the audit and the request log. It lives with those readers in ops/; the edge only
// creates it and carries it on Elysia's context (src/http/request-state.ts).
import type { ErrorSurface } from "../util/gateway-error";
import type { Caller } from "../accounts/caller";
import type { Timeline } from "./timeline";

export class RequestState {
  readonly start = performance.now();
  /** Route template for the log: the route Elysia matched (taken when the response is made), or a route's own. */
  route?: string;
  /** Polling endpoints log at debug (D3.6). */
  quiet: boolean;
  stream = false;
  model?: string;
  resolvedModel?: string;
  mode?: "managed" | "passthrough";
  /** The caller's fingerprint, for the log. */
  caller?: string;
  /** The fingerprint of the configured key the request was admitted on (quota and usage per key, issue 20). */
  admittedKey?: string;
  /** The fingerprint of the configured key the request came with, admitted or refused (the request log, issue 31). */
  configuredKey?: string;
  /** The configured key's allowed models (issue 31); undefined = every model. */
  allowedModels?: readonly string[];
  account?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Issue 31: the request log's reasoning tokens and timeline (created by the turn service for model calls). */
  reasoningTokens?: number;
  timeline?: Timeline;
  /** The chat history entry of this request, for the request log's link to its conversation. */
  historyId?: string;
  errorCode?: string;
  /** The error's message as the client got it (issue 31: the request log says why, not only which code). */
  errorMessage?: string;
  ttfbMs?: number;
  bytesOut?: number;
  aborted = false;
  /** Taken when the request arrives: once a client has left, the runtime no longer knows its address. */
  clientIp = "";
  logged = false;
  /** The body is an sse.ts stream that counts bytesOut and ttfbMs itself and calls streamEnded when it ends. */
  metered = false;
  /** What the access log does when the stream ends (access-log.ts), an object rather than a closure (issue 35). */
  streamEnd?: { end(aborted: boolean): void };
  /** Business authentication, done once per request by the first hook that needs it (business-edge.ts). */
  auth?: Caller;
  /** The admin credential check, once per request (admin-edge.ts). */
  adminCheck?: Promise<void>;
  private parsedUrl?: URL;

  constructor(
    readonly id: string,
    /** request.url as the app saw it. */
    readonly href: string,
    /** The path without the query, as Elysia routed it. */
    readonly path: string,
    /** "" or the query including its "?". */
    readonly search: string,
    readonly surface: ErrorSurface,
    /** Called in process (self test, raw-sample capture): no access log line, no metrics. */
    readonly internal = false,
    quiet = false,
  ) {
    this.quiet = quiet;
  }

  /** Parsed on first use only: most requests never need more than the path. */
  get url(): URL {
    return (this.parsedUrl ??= new URL(this.href));
  }

  /** sse.ts's StreamMeter: the body ended (or was cancelled); a method, so no closure per stream. */
  streamEnded(aborted: boolean): void {
    this.streamEnd?.end(aborted);
  }
}
