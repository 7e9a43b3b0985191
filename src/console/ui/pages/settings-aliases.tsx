// Settings card: model aliases (a requested name answered by a native model), saved as one map.
import { useState } from "preact/hooks";
import { api } from "../api";
import { SubmitForm, useSubmit } from "../form";
import { t } from "../i18n";
import { BuiltinAliases } from "./builtin-aliases";
import type { SettingsDoc, SettingsSaved } from "./settings-groups";

export function Aliases(props: { aliases: Record<string, string>; onSaved: (s: SettingsDoc) => void }) {
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(props.aliases));
  const form = useSubmit(async () => {
    const model_aliases = Object.fromEntries(rows.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v.trim()]));
    const r = await api<SettingsSaved>("/admin/settings", { method: "PUT", body: { model_aliases } });
    props.onSaved(r.settings);
    return t("Saved.");
  });
  return (
    <SubmitForm
      submit={form}
      class="card form"
      group="model_aliases"
      actions={
        <button type="button" onClick={() => setRows([...rows, ["", ""]])}>
          {t("Add alias")}
        </button>
      }
    >
      <h2>{t("Model aliases")}</h2>
      <p class="muted small">{t("A requested model name answered by a native model.")}</p>
      <BuiltinAliases />
      {rows.map(([k, v], i) => (
        <div class="row" key={i}>
          <input aria-label={t("Requested name")} placeholder={t("Requested name")} value={k} onInput={(e) => setRows(rows.map((r, j) => (j === i ? [e.currentTarget.value, r[1]] : r)))} />
          <span aria-hidden="true">→</span>
          <input aria-label={t("Native model")} placeholder={t("Native model")} value={v} onInput={(e) => setRows(rows.map((r, j) => (j === i ? [r[0], e.currentTarget.value] : r)))} />
          <button type="button" class="danger" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            {t("Remove")}
          </button>
        </div>
      ))}
    </SubmitForm>
  );
}
