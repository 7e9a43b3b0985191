// GET / (landing), GET /admin (console shell) and GET /admin/assets/{app.js,app.css}: the only /admin paths
// answered without a credential. They hold no data; the console signs in against the admin API itself.
import { publicDoc } from "../surfaces/public-docs";
import type { BusinessApp } from "../http/business-edge";
import type { AdminApp } from "../http/admin-edge";
import type { RequestState } from "../metering/request-state";
import { errors } from "../http/errors";
import type { Asset, ConsoleAssets } from "./assets";
import { consoleHtml, landingHtml } from "./pages";
import { CONSOLE_HEADERS } from "./security-headers";

// The assets module holds the console's script and style sheet (≈ 110 KB of text in the binary, and their compiled
// form): it is imported by the first page that needs them, so a start neither loads nor keeps it (issue 35).
async function consoleAssets(): Promise<ConsoleAssets> {
  return (await import("./assets")).consoleAssets();
}

function html(body: string): Response {
  return new Response(body, { headers: { ...CONSOLE_HEADERS, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
}

function acceptsGzip(request: Request): boolean {
  return /\bgzip\b/i.test(request.headers.get("accept-encoding") ?? "");
}

function serveAsset(request: Request, a: Asset): Response {
  const headers: Record<string, string> = { ...CONSOLE_HEADERS, "Content-Type": a.type, ETag: a.etag, "Cache-Control": "no-cache", Vary: "Origin, Accept-Encoding" };
  if (request.headers.get("if-none-match") === a.etag) return new Response(null, { status: 304, headers });
  if (acceptsGzip(request)) return new Response(a.gzip, { headers: { ...headers, "Content-Encoding": "gzip" } });
  return new Response(a.body, { headers });
}

/** GET /: served by the app's business part (app.ts), which answers every path outside /admin. */
export function landingRoutes(app: BusinessApp): void {
  app.get("/", async () => {
    const a = await consoleAssets();
    return html(landingHtml(a["app.css"].etag));
  }, publicDoc("landing"));
}

/** The console under /admin: registered on the admin part, built on the first /admin request (app.ts). */
export function consoleRoutes(app: AdminApp): void {
  // Both spellings of the console's address are logged as one route.
  const shell = async ({ reqState }: { reqState: RequestState }) => {
    reqState.route = "/admin";
    const a = await consoleAssets();
    return html(consoleHtml(a["app.js"].etag, a["app.css"].etag));
  };
  app
    .get("/admin", shell, publicDoc("consolePage"))
    .get("/admin/", shell, publicDoc("consolePage"))
    .get("/admin/assets/:name", async ({ request, params }) => {
      const name = params.name as keyof ConsoleAssets;
      const a = await consoleAssets();
      if (name !== "app.js" && name !== "app.css") throw errors.notFound(`No console asset ${String(name).slice(0, 64)}.`);
      return serveAsset(request, a[name]);
    }, publicDoc("consoleAsset"));
}
