// CORS per gateway.md §8 and D3.2, applied to every route before auth and routing: @elysiajs/cors answers
// preflights and sets the origin, exposed headers and max age; the hook here adds what only a preflight
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

/** Registered first in app.ts: the headers a preflight needs are set before the plugin answers it. */
export function corsPlugin() {
  return new Elysia({ name: "svc-cors" })
    .onRequest(({ request, set }) => {
      if (request.method !== "OPTIONS") return;
      set.headers["access-control-allow-headers"] = allowedHeaders(request.headers.get("access-control-request-headers"));
      set.headers["access-control-allow-methods"] = METHODS;
      if (request.headers.get("access-control-request-private-network") === "true") set.headers["access-control-allow-private-network"] = "true";
    })
    .use(
      cors({
        // A function, so the plugin echoes the Origin (or * without one) with Vary: Origin.
        origin: () => true,
        // Methods and allowed headers are set by the hook above, on preflights only. Given a list, the plugin
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
