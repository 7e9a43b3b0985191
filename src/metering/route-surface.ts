// The surface a route belongs to, for the metrics' labels and the request log (issue 31). Derived from the
// route template Elysia matched (a fixed set), never from the raw path: a request to an unknown path is
// "unknown", so a client cannot add label values by inventing paths. The error shape's surface (errors.ts
// surfaceOfPath) answers another question — which JSON shape an error takes — and calls /healthz "chat".
const PROBES = new Set(["/healthz", "/readyz"]);

export function routeSurface(method: string, route: string | undefined, path: string): string {
  if (!route) return PROBES.has(path) ? "health" : "unknown";
  if (PROBES.has(route)) return "health";
  if (route === "/metrics") return "metrics";
  if (route === "/" || route === "/admin" || route === "/admin/" || route.startsWith("/admin/assets")) return "console";
  if (route.startsWith("/admin")) return "admin";
  if (route.includes("/messages") || route.startsWith("/msgapi")) return route.includes("/models") ? "models" : "messages";
  if (route.includes("/models")) return method === "POST" ? "generate" : "models";
  if (route.includes("/chat/completions")) return "chat";
  if (route.includes("/responses")) return "responses";
  if (route.includes("/embeddings")) return "embeddings";
  if (route.includes("/files")) return "files";
  return "unknown";
}
