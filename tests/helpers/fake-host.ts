// A fake hosting-platform API (D14.1) on 127.0.0.1: records every call and answers with scripted statuses.
export interface HostCall {
  method: string;
  path: string;
  query: Record<string, string>;
  auth: string | null;
  body: any;
}

export interface FakeHost {
  base: string;
  calls: HostCall[];
  /** Env values stored by upserts, by name. */
  env: Map<string, string>;
  /** Overrides: status for the project check, env upserts and redeploys; redeploy url. */
  script: { project: number; upsert: number; redeploy: number; deployUrl: string };
  stop(): void;
}

export function startFakeHost(): FakeHost {
  const calls: HostCall[] = [];
  const env = new Map<string, string>();
  const script = { project: 200, upsert: 200, redeploy: 201, deployUrl: "my-app-abc.host.example" };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const text = await req.text();
      const body = text ? JSON.parse(text) : null;
      calls.push({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), auth: req.headers.get("authorization"), body });
      let m: RegExpExecArray | null;
      if (req.method === "GET" && (m = /^\/v1\/projects\/([^/]+)$/.exec(url.pathname)))
        return Response.json(script.project === 200 ? { id: m[1], name: "proj" } : { error: "x" }, { status: script.project });
      if (req.method === "PUT" && (m = /^\/v1\/projects\/[^/]+\/env\/([^/]+)$/.exec(url.pathname))) {
        if (script.upsert < 300) env.set(decodeURIComponent(m[1]!), body.value);
        return Response.json({}, { status: script.upsert });
      }
      if (req.method === "POST" && /^\/v1\/projects\/[^/]+\/deployments$/.test(url.pathname))
        return Response.json({ id: "dep_1", url: script.deployUrl }, { status: script.redeploy });
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, calls, env, script, stop: () => server.stop(true) };
}
