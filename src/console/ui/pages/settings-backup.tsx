// Settings card: download the configuration as JSON, restore it merged or replacing the current one.
import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert } from "../components";
import { useSubmit } from "../form";
import { t } from "../i18n";
// The answers as the server documents them (type-only imports: nothing of the server enters the bundle).
import type { ConfigExport, ConfigImportAnswer } from "../../../surfaces/admin/answer-schema";

export function Backup(props: { onRestored: () => void }) {
  const [mode, setMode] = useState<"merge" | "replace">("merge");
  // Download and restore share one message line: the card says how its last action went.
  const job = useSubmit();
  const download = async () => {
    const r = await api<ConfigExport>("/admin/config/export");
    const url = URL.createObjectURL(new Blob([r.json], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `svc-gateway-config-${new Date().toISOString().slice(0, 10)}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const restore = async (file: File) => {
    const config = JSON.parse(await file.text());
    if (mode === "replace" && !confirm(t("Replace the whole configuration with this file?"))) return;
    const r = await api<ConfigImportAnswer>("/admin/config/import", { method: "POST", body: { config, mode } });
    props.onRestored();
    return t("Restored: {k} keys, {a} accounts, {p} proxies.", { k: r.imported_keys, a: r.imported_accounts, p: r.imported_proxies });
  };
  return (
    <section class="card form" data-group="backup">
      <h2>{t("Backup and restore")}</h2>
      <div class="row wrap">
        <button type="button" onClick={() => void job.runJob(download)}>
          {t("Download backup")}
        </button>
        <select aria-label={t("Restore mode")} value={mode} onChange={(e) => setMode(e.currentTarget.value as "merge" | "replace")}>
          <option value="merge">{t("Merge into the current configuration")}</option>
          <option value="replace">{t("Replace the current configuration")}</option>
        </select>
        <label class="button">
          {t("Restore from file…")}
          <input
            type="file"
            class="sr-only"
            accept="application/json,.json"
            onChange={(e) => {
              const f = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (f) void job.runJob(() => restore(f));
            }}
          />
        </label>
      </div>
      <Alert kind="ok">{job.msg}</Alert>
      <Alert>{job.err}</Alert>
    </section>
  );
}
