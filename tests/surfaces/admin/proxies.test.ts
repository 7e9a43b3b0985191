import { afterAll, describe, expect, test } from "bun:test";
import { adminApp, call } from "../../helpers/admin";

// A fake core origin and a fake HTTP forward proxy, both on 127.0.0.1.
let coreStatus = 200;
const core = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("core", { status: coreStatus }) });
const proxied: string[] = [];
const proxy = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => {
    proxied.push(`${req.headers.get("proxy-authorization") ?? ""} ${req.url}`);
    return fetch(req.url);
  },
});
afterAll(() => {
  core.stop(true);
  proxy.stop(true);
});
const coreEnv = { SVC_CORE_BASE_URL: `http://127.0.0.1:${core.port}/` };

describe("/admin/proxies CRUD (D11.7)", () => {
  test("create generates an id and name, normalises type and port, and never returns the password", async () => {
    const t = await adminApp();
    const r = await call(t, "POST", "/admin/proxies", { type: "HTTP", host: " p.example ", port: "8080", username: "u", password: "px-secret-pass" });
    expect(r.status).toBe(200);
    expect(r.body.proxy).toEqual({ id: expect.stringMatching(/^proxy_[0-9a-f]{12}$/), name: "p.example:8080", type: "http", host: "p.example", port: 8080, username: "u", has_password: true, account_count: 0 });
    expect(r.body.config_writable).toBe(false);
    expect(r.text).not.toContain("px-secret-pass");
    const list = await call(t, "GET", "/admin/proxies");
    expect(list.body.total).toBe(1);
    expect(list.text).not.toContain("px-secret-pass");
    expect((await call(t, "POST", "/admin/proxies", { type: "http", host: "p.example", port: 8080, username: "u" })).status).toBe(409);
  });

  test("invalid fields are 400", async () => {
    const t = await adminApp();
    for (const body of [{ host: "h", port: 0 }, { host: "h", port: 70000 }, { host: "http://h", port: 1 }, { host: "h", port: 1, type: "ftp" }, { port: 1 }, { host: "h" }]) {
      expect((await call(t, "POST", "/admin/proxies", body)).status).toBe(400);
    }
  });

  test("update keeps the password when it is empty; delete unbinds accounts", async () => {
    const t = await adminApp({
      proxies: [{ id: "px", type: "http", host: "h", port: 1, password: "keep-me" }],
      accounts: [{ email: "a@x.com", password: "p", proxy_id: "px" }, { email: "b@x.com", password: "p", proxy_id: "px" }],
    });
    const u = await call(t, "PUT", "/admin/proxies/px", { name: "renamed", password: "", port: 2 });
    expect(u.body.proxy).toMatchObject({ id: "px", name: "renamed", port: 2, has_password: true, account_count: 2 });
    expect(t.built.ctx.config.get().proxies![0]!.password).toBe("keep-me");
    expect((await call(t, "PUT", "/admin/proxies/nope", { name: "x" })).status).toBe(404);
    const d = await call(t, "DELETE", "/admin/proxies/px");
    expect(d.body).toMatchObject({ success: true, unbound_accounts: 2 });
    expect(t.built.ctx.config.get().accounts!.map((a) => a.proxy_id)).toEqual(["", ""]);
    expect((await call(t, "DELETE", "/admin/proxies/px")).status).toBe(404);
  });
});

describe("POST /admin/proxies/test (D11.7)", () => {
  test("a saved http proxy that reaches core succeeds and forwards its credentials", async () => {
    const t = await adminApp({ proxies: [{ id: "px", type: "http", host: "127.0.0.1", port: proxy.port!, username: "u", password: "p@ss" }] }, coreEnv);
    coreStatus = 404;
    const r = await call(t, "POST", "/admin/proxies/test", { proxy_id: "px" });
    expect(r.body).toMatchObject({ success: true, proxy_id: "px", proxy_type: "http", status_code: 404 });
    expect(r.body.message).toContain("404");
    expect(proxied.at(-1)).toContain(`Basic ${btoa("u:p@ss")}`);
    expect(r.text).not.toContain("p@ss");
  });

  test("a temporary proxy from the body is tested; core ≥ 500 is a failure", async () => {
    const t = await adminApp({}, coreEnv);
    coreStatus = 503;
    const r = await call(t, "POST", "/admin/proxies/test", { type: "http", host: "127.0.0.1", port: proxy.port });
    expect(r.body).toMatchObject({ success: false, proxy_id: "", status_code: 503 });
    coreStatus = 200;
    expect((await call(t, "POST", "/admin/proxies/test", { type: "http", host: "127.0.0.1", port: proxy.port })).body.success).toBe(true);
  });

  test("a dead proxy is a failure with a message, not an error status", async () => {
    const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = dead.port!;
    dead.stop(true);
    const t = await adminApp({}, coreEnv);
    const r = await call(t, "POST", "/admin/proxies/test", { type: "http", host: "127.0.0.1", port, password: "dead-pass" });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.status_code).toBeNull();
    expect(r.text).not.toContain("dead-pass");
  });

  test("unknown saved proxy is 404; socks5 is reported as untestable", async () => {
    const t = await adminApp({ proxies: [{ id: "s", type: "socks5", host: "127.0.0.1", port: 1080 }] }, coreEnv);
    expect((await call(t, "POST", "/admin/proxies/test", { proxy_id: "nope" })).status).toBe(404);
    const s = await call(t, "POST", "/admin/proxies/test", { proxy_id: "s" });
    expect(s.body).toMatchObject({ success: false, proxy_type: "socks5" });
  });
});
