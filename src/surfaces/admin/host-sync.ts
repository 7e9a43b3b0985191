// Hosting sync (D14): pushes the live config to the hosting platform as SVC_CONFIG_JSON and starts a
// redeploy, so a hosted instance configured through the admin UI survives its next cold start. Also the
// drift view: has the config changed since it was last synced?
import type { AppContext } from "../../context";
import { canonicalJson } from "../../config/canonical-json";
import { configHash } from "../../config/hash";
import type { Config } from "../../config/schema";
import { GatewayError } from "../../util/gateway-error";
import { invalidRequest } from "../../util/invalid-request";
import { accountIdentifier } from "../../config/identity";

export const PRECONFIG_TOKEN = "__USE_PRECONFIG__";
const HOST_TIMEOUT_MS = 30_000;

export interface HostTarget {
  base: string;
  token: string;
  projectId: string;
  teamId: string | null;
}

export interface HostSyncRequest {
  host_token?: string;
  project_id?: string;
  team_id?: string;
  auto_validate: boolean;
  save_credentials: boolean;
}

export interface HostSyncResult {
  success: true;
  validated_accounts: number;
  failed_accounts: { identifier: string; message: string }[];
  saved_credentials: string[];
  message: string;
  config_hash: string;
  deployment_url?: string;
  manual_deploy_required?: true;
}

const unreachable = (msg: string) => new GatewayError(502, "bad_gateway", msg);

/** D14.4: what the environment already provides, without revealing the token. */
export function hostPreconfig(env: Record<string, string | undefined>) {
  return {
    has_token: Boolean(env.HOST_TOKEN?.trim()),
    project_id: env.HOST_PROJECT_ID?.trim() ?? "",
    team_id: env.HOST_TEAM_ID?.trim() || null,
    api_base_configured: Boolean(env.HOST_API_BASE?.trim()),
  };
}

/** The config as pushed to the host (D14.2): canonical, without account tokens, with the new sync stamp. */
export function syncedConfigJson(config: Config, hash: string, time: number): string {
  const copy = structuredClone(config) as Config;
  if (Array.isArray(copy.accounts)) copy.accounts = copy.accounts.map(({ token: _t, ...rest }) => rest);
  copy._host_sync_hash = hash;
  copy._host_sync_time = time;
  return canonicalJson(copy);
}

class HostApi {
  constructor(private readonly t: HostTarget) {}

  private url(path: string): string {
    const u = new URL(this.t.base.replace(/\/+$/, "") + path);
    if (this.t.teamId) u.searchParams.set("teamId", this.t.teamId);
    return u.toString();
  }

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(this.url(path), {
        method,
        headers: { Authorization: `Bearer ${this.t.token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(HOST_TIMEOUT_MS),
      });
    } catch (e) {
      // The reason names the network failure only; the token is in a header, never in a message.
      throw unreachable(`host API unreachable: ${(e as Error).name === "TimeoutError" ? "timed out" : (e as Error).message}`);
    }
    const text = await res.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json };
  }

  project(id: string) {
    return this.call("GET", `/v1/projects/${encodeURIComponent(id)}`);
  }

  upsertEnv(projectId: string, name: string, value: string) {
    return this.call("PUT", `/v1/projects/${encodeURIComponent(projectId)}/env/${encodeURIComponent(name)}`, {
      value,
      sensitive: true,
      targets: ["production", "preview"],
    });
  }

  redeploy(projectId: string) {
    return this.call("POST", `/v1/projects/${encodeURIComponent(projectId)}/deployments`, { target: "production", reason: "svc-gateway config sync" });
  }
}

const ok = (status: number) => status === 200 || status === 201;

function resolveTarget(ctx: AppContext, req: HostSyncRequest): { target: HostTarget; fromBody: Record<string, string> } {
  const env = ctx.env;
  const base = env.HOST_API_BASE?.trim();
  if (!base) throw invalidRequest("HOST_API_BASE is not set; hosting sync is not available.");
  const fromBody: Record<string, string> = {};
  const bodyToken = req.host_token?.trim();
  let token = env.HOST_TOKEN?.trim() ?? "";
  if (bodyToken && bodyToken !== PRECONFIG_TOKEN) token = fromBody.HOST_TOKEN = bodyToken;
  let projectId = env.HOST_PROJECT_ID?.trim() ?? "";
  if (req.project_id?.trim()) projectId = fromBody.HOST_PROJECT_ID = req.project_id.trim();
  let teamId = env.HOST_TEAM_ID?.trim() || null;
  if (req.team_id?.trim()) teamId = fromBody.HOST_TEAM_ID = req.team_id.trim();
  if (!token) throw invalidRequest("host_token is required (none given and HOST_TOKEN is not set).");
  if (!projectId) throw invalidRequest("project_id is required (none given and HOST_PROJECT_ID is not set).");
  return { target: { base, token, projectId, teamId }, fromBody };
}

export interface SyncOptions {
  /** Pause between account logins (D14.2: 500 ms); tests shorten it. */
  loginGapMs?: number;
}

/** D14.2 / D14.3. Throws GatewayError 400/502 for the failures that stop a sync; nothing is stored then. */
export async function hostSync(ctx: AppContext, req: HostSyncRequest, opts: SyncOptions = {}): Promise<HostSyncResult> {
  const { target, fromBody } = resolveTarget(ctx, req);
  const api = new HostApi(target);

  const project = await api.project(target.projectId);
  if (project.status === 401 || project.status === 403) throw invalidRequest("host rejected the token");
  if (project.status === 404) throw invalidRequest("project not found");
  if (project.status >= 500) throw unreachable(`host API answered HTTP ${project.status}`);
  if (project.status !== 200) throw invalidRequest(`host API answered HTTP ${project.status} for the project`);

  const failed: { identifier: string; message: string }[] = [];
  let validated = 0;
  if (req.auto_validate) {
    const gap = opts.loginGapMs ?? 500;
    const candidates = (ctx.config.get().accounts ?? []).filter((a) => a.password && !a.token && (a.email || a.mobile));
    for (const [i, acc] of candidates.entries()) {
      if (i > 0 && gap > 0) await Bun.sleep(gap);
      const id = accountIdentifier(acc);
      try {
        await ctx.accounts.token(id);
        validated++;
      } catch (e) {
        failed.push({ identifier: id, message: (e as Error).message || "login failed" });
      }
    }
  }

  // Logins above may have stored tokens; the hash ignores tokens, so it is stable across them.
  const config = ctx.config.get();
  const hash = configHash(config);
  const time = Math.floor(ctx.now() / 1000);
  const value = Buffer.from(syncedConfigJson(config, hash, time), "utf8").toString("base64");
  const put = await api.upsertEnv(target.projectId, "SVC_CONFIG_JSON", value);
  if (put.status >= 500) throw unreachable(`host API answered HTTP ${put.status} while saving SVC_CONFIG_JSON`);
  if (!ok(put.status)) throw invalidRequest(`host API refused SVC_CONFIG_JSON (HTTP ${put.status})`);

  const saved: string[] = [];
  if (req.save_credentials) {
    for (const [name, v] of Object.entries(fromBody)) {
      const r = await api.upsertEnv(target.projectId, name, v);
      if (ok(r.status)) saved.push(name);
    }
  }

  const result: HostSyncResult = {
    success: true,
    validated_accounts: validated,
    failed_accounts: failed,
    saved_credentials: saved,
    message: "",
    config_hash: hash,
  };
  let deployUrl: string | null = null;
  let why = "";
  try {
    const dep = await api.redeploy(target.projectId);
    const url = (dep.json as { url?: unknown } | null)?.url;
    if (ok(dep.status) && typeof url === "string" && url) deployUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`;
    else why = ok(dep.status) ? "the host started no deployment" : `the host refused the redeploy (HTTP ${dep.status})`;
  } catch (e) {
    why = (e as Error).message;
  }
  if (deployUrl) {
    result.deployment_url = deployUrl;
    result.message = "Configuration synced; redeploy started.";
  } else {
    result.manual_deploy_required = true;
    result.message = `Configuration synced; redeploy manually: ${why}.`;
  }

  await ctx.config.update((c) => {
    c._host_sync_hash = hash;
    c._host_sync_time = time;
  });
  return result;
}

/** D14.5: drift between the live config (or a draft) and what was last synced. */
export function hostStatus(ctx: AppContext, draft?: Config) {
  const config = ctx.config.get();
  const hash = ctx.config.configHash();
  const last = config._host_sync_hash || null;
  const lastTime = config._host_sync_time ?? null;
  const hasSynced = last !== null;
  const draftHash = draft ? configHash(draft) : hash;
  return {
    synced: hasSynced && hash === last,
    last_sync_time: lastTime,
    has_synced_before: hasSynced,
    env_backed: ctx.config.envBacked,
    config_hash: hash,
    last_synced_hash: last,
    draft_hash: draftHash,
    draft_differs: draftHash !== last,
  };
}
