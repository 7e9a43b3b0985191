// A JSON response built directly: routes answer with a Response so status and headers are explicit and the
// body is serialised once (Elysia's own mapping would sniff the value first).
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}
