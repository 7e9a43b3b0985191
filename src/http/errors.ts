// Typed errors and their per-surface shapes (D4.1–D4.4).
// The error type itself is plain (no HTTP machinery) and lives in src/util/gateway-error.ts: the pipeline,
// prompt and accounts throw it too, and they import nothing from http/ (ARCHITECTURE.md).
import { GatewayError, type ErrorSurface } from "../util/gateway-error";
import { invalidRequest } from "../util/invalid-request";

interface StatusRow {
  chat: string;
  messages: string;
  code: string;
  generate: string;
}

const STATUS_TABLE: Record<number, StatusRow> = {
  400: { chat: "invalid_request_error", messages: "invalid_request_error", code: "invalid_request", generate: "INVALID_ARGUMENT" },
  401: { chat: "authentication_error", messages: "authentication_error", code: "authentication_failed", generate: "UNAUTHENTICATED" },
  403: { chat: "permission_error", messages: "permission_error", code: "forbidden", generate: "PERMISSION_DENIED" },
  404: { chat: "invalid_request_error", messages: "not_found_error", code: "not_found", generate: "NOT_FOUND" },
  408: { chat: "invalid_request_error", messages: "invalid_request_error", code: "request_timeout", generate: "DEADLINE_EXCEEDED" },
  409: { chat: "invalid_request_error", messages: "invalid_request_error", code: "conflict", generate: "ALREADY_EXISTS" },
  413: { chat: "invalid_request_error", messages: "request_too_large", code: "request_too_large", generate: "INVALID_ARGUMENT" },
  422: { chat: "invalid_request_error", messages: "invalid_request_error", code: "tool_choice_violation", generate: "FAILED_PRECONDITION" },
  429: { chat: "rate_limit_error", messages: "rate_limit_error", code: "rate_limit_exceeded", generate: "RESOURCE_EXHAUSTED" },
  500: { chat: "api_error", messages: "api_error", code: "internal_error", generate: "INTERNAL" },
  501: { chat: "api_error", messages: "api_error", code: "not_implemented", generate: "UNIMPLEMENTED" },
  502: { chat: "api_error", messages: "api_error", code: "bad_gateway", generate: "UNAVAILABLE" },
  503: { chat: "service_unavailable_error", messages: "api_error", code: "service_unavailable", generate: "UNAVAILABLE" },
};

export function statusRow(status: number): StatusRow {
  return STATUS_TABLE[status] ?? (status >= 500 ? STATUS_TABLE[500]! : STATUS_TABLE[400]!);
}

/** D3.1: the surface of a path decides the error shape. */
export function surfaceOfPath(pathname: string): ErrorSurface {
  if (pathname.startsWith("/admin")) return "admin";
  if (pathname.startsWith("/msgapi/") || pathname === "/msgapi" || pathname.startsWith("/v1/messages") || pathname.startsWith("/messages"))
    return "messages";
  if (pathname.startsWith("/v1beta/") || /^\/v1\/models\/[^/]+:[^/]+$/.test(pathname)) return "generate";
  return "chat";
}

/** The JSON body of an error in the shape of a surface. */
export function errorBody(surface: ErrorSurface, err: GatewayError): unknown {
  const row = statusRow(err.status);
  switch (surface) {
    case "admin":
      return { detail: err.message };
    case "messages":
      return { type: "error", error: { type: row.messages, message: err.message, code: err.code, param: err.param } };
    case "generate":
      return { error: { code: err.status, message: err.message, status: row.generate, details: [{ reason: err.code }] } };
    default:
      return { error: { message: err.message, type: row.chat, code: err.code, param: err.param } };
  }
}

export function errorResponse(surface: ErrorSurface, err: GatewayError, headers: Record<string, string> = {}): Response {
  const h = new Headers({ "Content-Type": "application/json", ...headers, ...(err.extraHeaders ?? {}) });
  if (err.retryAfter !== undefined) h.set("Retry-After", String(err.retryAfter));
  if (surface === "admin" && err.status === 401) h.set("WWW-Authenticate", "Bearer");
  return new Response(JSON.stringify(errorBody(surface, err)), { status: err.status, headers: h });
}

/** Convenience constructors for the codes of D4.3. */
export const errors = {
  invalidJson: (msg = "Request body is not valid JSON.") => new GatewayError(400, "invalid_json", msg),
  invalidRequest,
  notFound: (msg = "Not found.") => new GatewayError(404, "not_found", msg),
  // Connection: close, so Bun neither drains the rest of an oversized body nor leaves the socket half-read.
  tooLarge: (limit: number) =>
    new GatewayError(413, "request_too_large", `Request body exceeds the limit of ${limit} bytes.`, { headers: { Connection: "close" } }),
  internal: (requestId: string) => new GatewayError(500, "internal_error", `Internal error (request ${requestId})`),
};
