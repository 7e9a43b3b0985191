// The console's server side over a real socket, from source (so the console bundles itself on first use):
// the only /admin paths answered without a credential, their CSP, the assets' caching and size, the landing page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startLiveGateway, type LiveGateway } from "../helpers/gateway";

let gw: LiveGateway;

beforeAll(async () => {
  gw = await startLiveGateway({ config: { keys: ["sk-console"] } });
});
afterAll(() => gw?.stop());

function cspOf(r: Response): Map<string, string> {
  const csp = r.headers.get("content-security-policy") ?? "";
  return new Map(
    csp
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...rest] = d.split(/\s+/);
        return [name!, rest.join(" ")] as [string, string];
      }),
  );
}

describe("console shell", () => {
  test("GET /admin answers HTML without a credential, with a CSP that allows only its own origin and no inline script", async () => {
    const r = await fetch(`${gw.url}/admin`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    const csp = cspOf(r);
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("script-src")).toBe("'self'");
    expect(csp.get("style-src")).toBe("'self'");
    expect(csp.get("connect-src")).toBe("'self'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    for (const v of csp.values()) {
      expect(v).not.toContain("unsafe-inline");
      expect(v).not.toContain("unsafe-eval");
      expect(v).not.toMatch(/https?:|\*/);
    }
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await r.text();
    // Every script is an external file of this origin; no inline script or style block is needed.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    expect(scripts[0]![1]).toMatch(/src="\/admin\/assets\/app\.js\?v=[\w-]+"/);
    expect(scripts[0]![2]!.trim()).toBe("");
    expect(html).not.toMatch(/<style|\sstyle=|\son\w+=/i);
  });

  test("the shell holds no data: neither the admin key nor a managed key is in it", async () => {
    const html = await (await fetch(`${gw.url}/admin`)).text();
    expect(html).not.toContain("test-admin-key");
    expect(html).not.toContain("sk-console");
  });

  test("/admin/ (trailing slash) is the same shell", async () => {
    const r = await fetch(`${gw.url}/admin/`);
    expect(r.status).toBe(200);
    expect(await r.text()).toContain("/admin/assets/app.js");
  });

  test("every other /admin path still needs a credential", async () => {
    for (const path of ["/admin/config", "/admin/console/status", "/admin/nothing-here"]) {
      const r = await fetch(`${gw.url}${path}`);
      expect(r.status).toBe(401);
    }
  });
});

describe("console assets", () => {
  test("app.js and app.css: right types, ETag revalidation (304), gzip when accepted", async () => {
    for (const [name, type] of [
      ["app.js", "text/javascript"],
      ["app.css", "text/css"],
    ] as const) {
      const plain = await fetch(`${gw.url}/admin/assets/${name}`, { headers: { "Accept-Encoding": "identity" }, decompress: false } as RequestInit);
      expect(plain.status).toBe(200);
      expect(plain.headers.get("content-type")).toContain(type);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("content-security-policy")).toContain("script-src 'self'");
      const etag = plain.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const body = await plain.text();
      expect(body.length).toBeGreaterThan(1000);

      const again = await fetch(`${gw.url}/admin/assets/${name}`, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");

      const gz = await fetch(`${gw.url}/admin/assets/${name}`, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
      expect(gz.headers.get("content-encoding")).toBe("gzip");
      expect(gz.headers.get("vary")).toContain("Accept-Encoding");
      const unzipped = new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer())));
      expect(unzipped).toBe(body);
    }
  });

  test("the assets total at most 250 KB gzipped", async () => {
    let total = 0;
    for (const name of ["app.js", "app.css"]) {
      const r = await fetch(`${gw.url}/admin/assets/${name}`, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
      total += (await r.arrayBuffer()).byteLength;
    }
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(250 * 1024);
  });

  test("an unknown asset is 404, not the shell", async () => {
    const r = await fetch(`${gw.url}/admin/assets/secret.json`);
    expect(r.status).toBe(404);
  });
});

describe("landing page", () => {
  test("GET / links to the console, the model list and the API reference, and names the guides", async () => {
    const r = await fetch(`${gw.url}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/html");
    expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await r.text();
    expect(html).toContain('href="/admin"');
    expect(html).toContain('href="/v1/models"');
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain("README.md");
    expect((await fetch(`${gw.url}/openapi.json`)).status).toBe(200);
    expect(html).not.toContain("<script");
  });
});
