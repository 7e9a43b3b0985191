// CORS per gateway.md §8 and D3.2, applied to every route before auth and routing.

const DEFAULT_ALLOWED = [
  "Content-Type",
  "Authorization",
  "X-API-Key",
  "X-Svc-Target-Account",
  "X-Svc-Source",
  "X-Host-Protection-Bypass",
  "X-Alt-Api-Key",
  "Msgapi-Version",
  "Msgapi-Beta",
  // the official SDKs' own names for the same things (D3.2)
  "x-goog-api-key",
  "anthropic-version",
  "anthropic-beta",
  "X-Request-Id",
];

const BLOCKED = "x-svc-internal-token";

export const EXPOSED_HEADERS =
  "X-Request-Id, request-id, Retry-After, ETag, X-Svc-Sample-Id, X-Svc-Sample-Dir, X-Svc-Sample-Meta, X-Svc-Sample-Upstream";

/** Headers every response carries. */
export function corsHeaders(request: Request): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": request.headers.get("origin") || "*",
    Vary: "Origin",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS,
  };
}

/** The answer to a preflight (OPTIONS): 204, no auth. */
export function preflightResponse(request: Request, extra: Record<string, string>): Response {
  const seen = new Set<string>();
  const allowed: string[] = [];
  const add = (name: string) => {
    const trimmed = name.trim();
    if (!trimmed) return;
    const lower = trimmed.toLowerCase();
    if (lower === BLOCKED || seen.has(lower)) return;
    seen.add(lower);
    allowed.push(trimmed);
  };
  DEFAULT_ALLOWED.forEach(add);
  (request.headers.get("access-control-request-headers") ?? "").split(",").forEach(add);
  const headers: Record<string, string> = {
    ...corsHeaders(request),
    ...extra,
    "Access-Control-Allow-Methods": "GET, HEAD, POST, PUT, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": allowed.join(", "),
    "Access-Control-Max-Age": "600",
  };
  if (request.headers.get("access-control-request-private-network") === "true")
    headers["Access-Control-Allow-Private-Network"] = "true";
  return new Response(null, { status: 204, headers });
}
