// The gateway's typed error (ARCHITECTURE.md conventions): a status, a code of D4.3, a message in our own
// words, and the optional param, Retry-After and extra headers. Thrown anywhere in the gateway; src/http/errors.ts
// renders it in each surface's shape.
/** The protocol whose shape an error is rendered in (D3.1); each request knows its own from the start. */
export type ErrorSurface = "chat" | "messages" | "generate" | "admin";

export class GatewayError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | null;
  /** Seconds for a Retry-After header (D4.6). */
  readonly retryAfter?: number;
  readonly extraHeaders?: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { param?: string | null; retryAfter?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "GatewayError";
    this.status = status;
    this.code = code;
    this.param = opts.param ?? null;
    this.retryAfter = opts.retryAfter ?? defaultRetryAfter(status, code);
    this.extraHeaders = opts.headers;
  }
}

function defaultRetryAfter(status: number, code: string): number | undefined {
  if (status === 503) return code === "shutting_down" ? 5 : 10;
  return undefined;
}
