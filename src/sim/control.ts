// The simulator's control API over HTTP (core-upstream §12.10), only on the simulator's own listener:
// the same operations as the in-process API, for tests and tools in other processes.
import type { CoreSimulator } from "./index";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

export async function handleControl(sim: CoreSimulator, req: Request, url: URL): Promise<Response> {
  let body: any = {};
  if (req.method === "POST") {
    const text = await req.text();
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      return json({ ok: false, error: "body must be JSON" }, 400);
    }
  }
  try {
    switch (`${req.method} ${url.pathname}`) {
      case "POST /_sim/reset":
        sim.reset({ hard: body?.hard === true });
        return json({ ok: true });
      case "POST /_sim/config":
        sim.set(body ?? {});
        return json({ ok: true, switches: sim.switches });
      case "POST /_sim/enqueue":
        for (const e of Array.isArray(body) ? body : [body]) sim.enqueue(e);
        return json({ ok: true });
      case "POST /_sim/expire-tokens":
        return json({ ok: true, expired: sim.expireTokens(typeof body?.account === "string" ? body.account : undefined) });
      case "POST /_sim/ban":
        return json({ ok: true, account: sim.ban(String(body?.account ?? ""), body?.banned !== false) });
      case "POST /_sim/clock/advance":
        sim.advanceClock(Number(body?.ms ?? 0));
        return json({ ok: true, clock: sim.state().clock });
      case "POST /_sim/accounts":
        return json({ ok: true, account: sim.addAccount(body) });
      case "GET /_sim/requests": {
        const since = url.searchParams.get("since");
        const path = url.searchParams.get("path");
        return json(sim.requests({ since: since === null ? undefined : Number(since), path: path ?? undefined }));
      }
      case "GET /_sim/state":
        return json(sim.state());
    }
  } catch (e) {
    return json({ ok: false, error: e instanceof Error ? e.message : String(e) }, 400);
  }
  return json({ ok: false, error: "unknown control path" }, 404);
}
