// Settings: every hot setting of PUT /admin/settings grouped as the API groups them (each group saved on its
// own, the API's validation message shown beside it), model aliases, password, backup and restore, host sync.
import { BuiltinAliases } from "./builtin-aliases";
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Badge, Field, errText } from "../components";
import { fmtTime, t } from "../i18n";
import { clearToken } from "../session";
import { ApiReference } from "./api-reference";

type Kind = "number" | "bool" | "text" | "secret" | { options: string[] };
interface Setting {
  key: string;
  label: string;
  kind: Kind;
  hint?: string;
}
interface Group {
  section: string;
  title: string;
  fields: Setting[];
}

const GROUPS: Group[] = [
  {
    section: "runtime",
    title: "Concurrency and queue",
    fields: [
      { key: "account_max_inflight", label: "Requests in flight per account", kind: "number" },
      { key: "global_max_inflight", label: "Requests in flight in all", kind: "number" },
      { key: "account_max_queue", label: "Queue size", kind: "number" },
      { key: "queue_wait_seconds", label: "Longest wait in the queue (seconds)", kind: "number" },
      { key: "token_refresh_interval_hours", label: "Token refresh interval (hours)", kind: "number" },
    ],
  },
  {
    section: "compat",
    title: "Compatibility",
    fields: [
      { key: "wide_input_strict_output", label: "Accept wide input, answer strictly", kind: "bool" },
      { key: "strip_reference_markers", label: "Strip reference markers from answers", kind: "bool" },
    ],
  },
  {
    section: "responses",
    title: "Responses store",
    fields: [
      { key: "store_ttl_seconds", label: "Stored responses kept for (seconds)", kind: "number" },
      { key: "store_max_entries", label: "Stored responses at most", kind: "number" },
    ],
  },
  {
    section: "embeddings",
    title: "Embeddings",
    fields: [
      { key: "provider", label: "Provider", kind: { options: ["", "builtin", "deterministic", "mock"] }, hint: "Empty: embeddings answer 501." },
      { key: "dimensions", label: "Dimensions", kind: "number" },
    ],
  },
  {
    section: "auto_delete",
    title: "Session cleanup on core",
    fields: [{ key: "mode", label: "Delete core sessions after a request", kind: { options: ["none", "single", "all"] } }],
  },
  {
    section: "current_input_file",
    title: "Long prompts",
    fields: [
      { key: "enabled", label: "Send long conversations as a context file", kind: "bool" },
      { key: "min_chars", label: "From this many characters", kind: "number" },
    ],
  },
  {
    section: "admin",
    title: "Admin sign-in",
    fields: [{ key: "jwt_expire_hours", label: "Sign-in lasts (hours)", kind: "number" }],
  },
  {
    section: "release",
    title: "Update check",
    fields: [
      { key: "feed_url", label: "Release feed URL", kind: "text" },
      { key: "feed_token", label: "Release feed token", kind: "secret", hint: "Leave empty to keep the stored token." },
    ],
  },
];

type Settings = Record<string, any>;

export function Settings() {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [err, setErr] = useState("");
  const load = async () => {
    try {
      setSettings(await api<Settings>("/admin/settings"));
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
        <SettingsGroup key={g.section} group={g} values={settings[g.section] ?? {}} onSaved={setSettings} />
      ))}
      <Aliases aliases={settings.model_aliases ?? {}} onSaved={setSettings} />
      <Password warn={Boolean(settings.admin?.default_password_warning)} />
      <Backup onRestored={load} />
      <ApiReference />
      <HostSync />
    </div>
  );
}

function toInput(v: unknown): string {
  return v === null || v === undefined ? "" : String(v);
}

/** The form value of a setting; a limit the gateway computes itself (runtime.computed) shows as empty. */
function initialDraft(group: Group, values: Record<string, unknown>): Record<string, string | boolean> {
  const computed = (values.computed ?? {}) as Record<string, boolean>;
  return Object.fromEntries(
    group.fields.map((f) => [f.key, f.kind === "bool" ? Boolean(values[f.key]) : f.kind === "secret" || computed[f.key] ? "" : toInput(values[f.key])]),
  );
}

function SettingsGroup(props: { group: Group; values: Record<string, unknown>; onSaved: (s: Settings) => void }) {
  const { group } = props;
  const computed = (props.values.computed ?? {}) as Record<string, boolean>;
  const [initial, setInitial] = useState(() => initialDraft(group, props.values));
  const [draft, setDraft] = useState(initial);
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");
  const save = async (e: Event) => {
    e.preventDefault();
    setMsg("");
    setErr("");
    // Only what the operator changed is sent: a partial update cannot trip over a field left alone.
    const body: Record<string, unknown> = {};
    for (const f of group.fields) {
      const v = draft[f.key];
      if (v === initial[f.key]) continue;
      if (f.kind === "number" && typeof v === "string") {
        // Empty resets to the default (or the computed limit); a number the browser cannot read is sent as
        // typed, so the API's own message explains what is wrong.
        body[f.key] = v.trim() === "" ? null : Number.isFinite(Number(v)) ? Number(v) : v;
      } else body[f.key] = v;
    }
    if (Object.keys(body).length === 0) {
      setMsg(t("Nothing changed."));
      return;
    }
    try {
      const r = await api<{ settings: Settings; config_warning?: string }>("/admin/settings", { method: "PUT", body: { [group.section]: body } });
      const next = initialDraft(group, r.settings[group.section] ?? {});
      setInitial(next);
      setDraft(next);
      props.onSaved(r.settings);
      setMsg(r.config_warning || t("Saved."));
    } catch (e) {
      setErr(errText(e));
    }
  };
  return (
    <form class="card form" onSubmit={save} data-group={group.section}>
      <h2>{t(group.title)}</h2>
      <div class="grid">
        {group.fields.map((f) =>
          f.kind === "bool" ? (
            <label class="check" key={f.key}>
              <input type="checkbox" name={f.key} checked={Boolean(draft[f.key])} onChange={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.checked })} />
              {t(f.label)}
            </label>
          ) : (
            <Field
              key={f.key}
              label={t(f.label)}
              hint={f.hint ? t(f.hint) : f.kind === "secret" && props.values.has_feed_token ? t("A token is stored.") : computed[f.key] ? t("Empty: computed from the accounts.") : undefined}
            >
              {typeof f.kind === "object" ? (
                <select name={f.key} value={String(draft[f.key])} onChange={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.value })}>
                  {f.kind.options.map((o) => (
                    <option key={o} value={o}>
                      {o || t("(unset)")}
                    </option>
                  ))}
                </select>
              ) : (
                f.kind === "secret" ? (
                  <input name={f.key} type="password" autoComplete="off" value={String(draft[f.key])} onInput={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.value })} />
                ) : (
                  <input
                    name={f.key}
                    type="text"
                    inputMode={f.kind === "number" ? "numeric" : undefined}
                    placeholder={computed[f.key] ? t("automatic") : undefined}
                    autoComplete="off"
                    value={String(draft[f.key])}
                    onInput={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.value })}
                  />
                )
              )}
            </Field>
          ),
        )}
      </div>
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="form-actions">
        <button type="submit" class="primary">
          {t("Save")}
        </button>
      </div>
    </form>
  );
}

function Aliases(props: { aliases: Record<string, string>; onSaved: (s: Settings) => void }) {
  const [rows, setRows] = useState<[string, string][]>(() => Object.entries(props.aliases));
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");
  const save = async (e: Event) => {
    e.preventDefault();
    setMsg("");
    setErr("");
    const model_aliases = Object.fromEntries(rows.filter(([k]) => k.trim()).map(([k, v]) => [k.trim(), v.trim()]));
    try {
      const r = await api<{ settings: Settings }>("/admin/settings", { method: "PUT", body: { model_aliases } });
      props.onSaved(r.settings);
      setMsg(t("Saved."));
    } catch (e) {
      setErr(errText(e));
    }
  };
  return (
    <form class="card form" onSubmit={save} data-group="model_aliases">
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
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="form-actions">
        <button type="button" onClick={() => setRows([...rows, ["", ""]])}>
          {t("Add alias")}
        </button>
        <button type="submit" class="primary">
          {t("Save")}
        </button>
      </div>
    </form>
  );
}

function Password(props: { warn: boolean }) {
  const [pw, setPw] = useState("");
  const [pw2, setPw2] = useState("");
  const [err, setErr] = useState("");
  const save = async (e: Event) => {
    e.preventDefault();
    setErr("");
    if (pw !== pw2) {
      setErr(t("The two passwords differ."));
      return;
    }
    try {
      await api("/admin/settings/password", { method: "POST", body: { new_password: pw } });
      // Every earlier token is now invalid, this one included: sign in again with the new password.
      clearToken();
      location.reload();
    } catch (e) {
      setErr(errText(e));
    }
  };
  return (
    <form class="card form" onSubmit={save} data-group="password">
      <h2>{t("Admin password")}</h2>
      {props.warn ? <Alert kind="info">{t("No password is set and the admin key was generated at start-up: set a password.")}</Alert> : null}
      <div class="grid">
        <Field label={t("New password")} hint={t("8 characters or more. Every open console signs out.")}>
          <input type="password" name="new-password" autoComplete="new-password" value={pw} onInput={(e) => setPw(e.currentTarget.value)} />
        </Field>
        <Field label={t("Repeat the password")}>
          <input type="password" name="repeat-password" autoComplete="new-password" value={pw2} onInput={(e) => setPw2(e.currentTarget.value)} />
        </Field>
      </div>
      <Alert>{err}</Alert>
      <div class="form-actions">
        <button type="submit" class="primary" disabled={!pw}>
          {t("Change password")}
        </button>
      </div>
    </form>
  );
}

function Backup(props: { onRestored: () => void }) {
  const [mode, setMode] = useState<"merge" | "replace">("merge");
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");
  const download = async () => {
    setErr("");
    try {
      const r = await api<{ json: string }>("/admin/config/export");
      const url = URL.createObjectURL(new Blob([r.json], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `svc-gateway-config-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setErr(errText(e));
    }
  };
  const restore = async (file: File) => {
    setErr("");
    setMsg("");
    try {
      const config = JSON.parse(await file.text());
      if (mode === "replace" && !confirm(t("Replace the whole configuration with this file?"))) return;
      const r = await api<{ imported_keys: number; imported_accounts: number; imported_proxies: number }>("/admin/config/import", { method: "POST", body: { config, mode } });
      setMsg(t("Restored: {k} keys, {a} accounts, {p} proxies.", { k: r.imported_keys, a: r.imported_accounts, p: r.imported_proxies }));
      props.onRestored();
    } catch (e) {
      setErr(errText(e));
    }
  };
  return (
    <section class="card form" data-group="backup">
      <h2>{t("Backup and restore")}</h2>
      <div class="row wrap">
        <button type="button" onClick={() => void download()}>
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
              if (f) void restore(f);
            }}
          />
        </label>
      </div>
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
    </section>
  );
}

interface HostConfig {
  has_token: boolean;
  project_id: string;
  api_base_configured: boolean;
}
interface HostStatus {
  synced: boolean;
  last_sync_time: number | null;
  has_synced_before: boolean;
  env_backed: boolean;
}

function HostSync() {
  const [cfg, setCfg] = useState<HostConfig | null>(null);
  const [status, setStatus] = useState<HostStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");
  const load = async () => {
    const c = await api<HostConfig>("/admin/host/config");
    setCfg(c);
    if (c.api_base_configured) setStatus(await api<HostStatus>("/admin/host/status"));
  };
  useEffect(() => {
    load().catch((e) => setErr(errText(e)));
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
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="form-actions">
        <button
          type="button"
          class="primary"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setErr("");
            setMsg("");
            try {
              const r = await api<{ message: string }>("/admin/host/sync", { method: "POST", body: {} });
              setMsg(r.message);
              await load();
            } catch (e) {
              setErr(errText(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? t("Syncing…") : t("Sync now")}
        </button>
      </div>
    </section>
  );
}
