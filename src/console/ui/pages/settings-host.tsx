// Settings card: host sync status and "sync now"; shown only when the host API base is configured.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Badge, errText } from "../components";
import { useSubmit } from "../form";
import { fmtTime, t } from "../i18n";
import type { hostPreconfig, hostStatus, HostSyncResult } from "../../../surfaces/admin/host-sync";

// The server's own shapes (type-only: nothing of the server enters the bundle).
type HostConfig = ReturnType<typeof hostPreconfig>;
type HostStatus = ReturnType<typeof hostStatus>;

export function HostSync() {
  const [cfg, setCfg] = useState<HostConfig | null>(null);
  const [status, setStatus] = useState<HostStatus | null>(null);
  const [loadErr, setLoadErr] = useState("");
  const sync = useSubmit(async () => {
    setLoadErr(""); // a sync replaces whatever the first load said
    const r = await api<HostSyncResult>("/admin/host/sync", { method: "POST", body: {} });
    await load();
    return r.message;
  });
  const load = async () => {
    const c = await api<HostConfig>("/admin/host/config");
    setCfg(c);
    if (c.api_base_configured) setStatus(await api<HostStatus>("/admin/host/status"));
  };
  useEffect(() => {
    load().catch((e) => setLoadErr(errText(e)));
  }, []);
  if (!cfg || !cfg.api_base_configured) return null;
  return (
    <section class="card form" data-group="host">
      <h2>{t("Host sync")}</h2>
      {status ? (
        <p>
          {status.synced ? <Badge kind="ok">{t("In sync")}</Badge> : <Badge kind="warn">{t("Not synced")}</Badge>}{" "}
          <span class="muted">{t("Last sync: {t}", { t: status.last_sync_time ? fmtTime(new Date(status.last_sync_time * 1000).toISOString()) : t("never") })}</span>
        </p>
      ) : null}
      <p class="muted small">{cfg.has_token && cfg.project_id ? t("Project {p}.", { p: cfg.project_id }) : t("Set HOST_TOKEN and HOST_PROJECT_ID to sync.")}</p>
      <Alert kind="ok">{sync.msg}</Alert>
      <Alert>{sync.err || loadErr}</Alert>
      <div class="form-actions">
        <button type="button" class="primary" disabled={sync.busy} onClick={() => void sync.run()}>
          {sync.busy ? t("Syncing…") : t("Sync now")}
        </button>
      </div>
    </section>
  );
}
