// Settings: every hot setting of PUT /admin/settings grouped as the API groups them, model aliases, password,
// backup and restore, API reference, host sync. Each screen is its own file; this page loads the settings once.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { Alert, errText } from "../components";
import { t } from "../i18n";
import { ApiReference } from "./api-reference";
import { Aliases } from "./settings-aliases";
import { Backup } from "./settings-backup";
import { GROUPS, SettingsGroup, type SettingsDoc } from "./settings-groups";
import { HostSync } from "./settings-host";
import { Password } from "./settings-password";

export function Settings() {
  const [settings, setSettings] = useState<SettingsDoc | null>(null);
  const [err, setErr] = useState("");
  const load = async () => {
    try {
      setSettings(await api<SettingsDoc>("/admin/settings"));
    } catch (e) {
      setErr(errText(e));
    }
  };
  useEffect(() => {
    void load();
  }, []);
  if (!settings) return err ? <Alert>{err}</Alert> : <p class="muted">{t("Loading…")}</p>;
  return (
    <div class="stack settings">
      {settings.config_writable === false ? <Alert kind="info">{t("The configuration file is not writable: changes last until the gateway restarts.")}</Alert> : null}
      {GROUPS.map((g) => (
        <SettingsGroup key={g.section} group={g} values={settings[g.section]} onSaved={setSettings} />
      ))}
      <Aliases aliases={settings.model_aliases} onSaved={setSettings} />
      <Password warn={settings.admin.default_password_warning} />
      <Backup onRestored={load} />
      <ApiReference />
      <HostSync />
    </div>
  );
}
