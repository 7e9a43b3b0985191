// `svc-gateway probe`: GET /healthz on the local gateway and exit 0 when it answers 200, 1 otherwise. The
// container's HEALTHCHECK runs it, so the image needs neither a shell nor curl.
import type { CliArgs } from "./args";

const PROBE_TIMEOUT_MS = 5000;

export async function runProbe(args: CliArgs, env: Record<string, string | undefined> = process.env): Promise<number> {
  const port = args.port ?? (env.PORT ? Number(env.PORT) : 5001);
  const configured = args.host ?? env.SVC_HOST ?? "127.0.0.1";
  // A wildcard listen address is not an address to connect to; the gateway answers on loopback then.
  const host = configured === "0.0.0.0" || configured === "::" || configured === "" ? "127.0.0.1" : configured;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}/healthz`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    const ok = res.status === 200;
    await res.body?.cancel();
    process.stdout.write(`${ok ? "healthy" : "unhealthy"}: ${url} answered ${res.status}\n`);
    return ok ? 0 : 1;
  } catch (e) {
    process.stdout.write(`unhealthy: ${url}: ${(e as Error).message}\n`);
    return 1;
  }
}
