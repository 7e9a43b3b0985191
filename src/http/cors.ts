// CORS per gateway.md §8 and D3.2, applied to every route before auth and routing: @elysiajs/cors answers
// preflights and sets the origin, exposed headers and max age; preflightHeaders adds what only a preflight
// needs and the plugin cannot say — the allowed headers are our defaults plus what the browser asks for,
// minus X-Svc-Internal-Token in any letter case, the allowed methods, and private-network access when asked.
// (Given methods or allowed headers, the plugin would also put them on every ordinary response.)
import { cors } from "@elysiajs/cors";
import { Elysia } from "elysia";

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

const METHODS = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

const EXPOSED_HEADERS = ["X-Request-Id", "request-id", "Retry-After", "ETag", "X-Svc-Sample-Id", "X-Svc-Sample-Dir", "X-Svc-Sample-Meta", "X-Svc-Sample-Upstream"];

/** The defaults, then every requested name once (first spelling wins), never the internal token. */
export function allowedHeaders(requested: string | null): string {
  const seen = new Set<string>();
  const allowed: string[] = [];
  for (const name of [...DEFAULT_ALLOWED, ...(requested ?? "").split(",")]) {
    const trimmed = name.trim();
    const lower = trimmed.toLowerCase();
    if (!trimmed || lower === BLOCKED || seen.has(lower)) continue;
    seen.add(lower);
    allowed.push(trimmed);
  }
  return allowed.join(", ");
}

/**
 * For an OPTIONS request, called by app.ts's first onRequest hook: the headers a preflight needs are set
 * before the plugin answers it (one hook fewer on every request than a hook of its own).
 */
export function preflightHeaders(request: Request, headers: Record<string, string | number>): void {
  headers["access-control-allow-headers"] = allowedHeaders(request.headers.get("access-control-request-headers"));
  headers["access-control-allow-methods"] = METHODS;
  if (request.headers.get("access-control-request-private-network") === "true") headers["access-control-allow-private-network"] = "true";
}

/** Registered in app.ts after its first onRequest hook (which calls preflightHeaders). */
export function corsPlugin() {
  return new Elysia({ name: "svc-cors" })
    .use(
      cors({
        // A function, so the plugin echoes the Origin (or * without one) with Vary: Origin.
        origin: () => true,
        // Methods and allowed headers are set by preflightHeaders, on preflights only. Given a list, the plugin
        // would put ~250 bytes of allowed headers on every answer; false (which its code handles but its
        // types omit) leaves them out.
        methods: false,
        allowedHeaders: false as unknown as string,
        exposeHeaders: EXPOSED_HEADERS,
        // No cookies are used (D3.2).
        credentials: false,
        maxAge: 600,
      }),
    );
}
