// Per-request facts gathered along the way and written as one log line when the response ends (D3.6).
import type { ErrorSurface } from "./errors";

export interface RequestState {
  id: string;
  start: number;
  url: URL;
  surface: ErrorSurface;
  /** Route template, set by the route that handled it. */
  route?: string;
  stream?: boolean;
  model?: string;
  resolvedModel?: string;
  mode?: "managed" | "passthrough";
  caller?: string;
  account?: string;
  inputTokens?: number;
  outputTokens?: number;
  errorCode?: string;
  ttfbMs?: number;
  bytesOut?: number;
  aborted?: boolean;
  clientIp?: string;
  /** The body read deadline, when the app was built with another than BODY_TIMEOUT_MS (tests). */
  bodyTimeoutMs?: number;
  /** Polling endpoints log at debug (D3.6). */
  quiet?: boolean;
  logged?: boolean;
}

const states = new WeakMap<Request, RequestState>();

export function setRequestState(request: Request, state: RequestState): void {
  states.set(request, state);
}

export function requestState(request: Request): RequestState | undefined {
  return states.get(request);
}
