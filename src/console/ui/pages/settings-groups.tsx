// Settings cards for the hot settings of PUT /admin/settings, one card per API group, each saved on its own
// with the API's validation message shown beside it.
import { useState } from "preact/hooks";
import { api } from "../api";
import { Field } from "../components";
import { SubmitForm, useSubmit } from "../form";
import { t } from "../i18n";
// The server's own types (type-only imports: nothing of the server enters the bundle).
import type { settingsObject } from "../../../surfaces/admin/settings-routes";
import type { SettingsAnswer } from "../../../surfaces/admin/answer-schema";

/** The settings document as GET /admin/settings returns it (the view settings-routes.ts builds); the cards read their own group of it. */
export type SettingsDoc = ReturnType<typeof settingsObject>;
/** What PUT /admin/settings answers: the settings after the change, and a warning when the file was not written. */
export type SettingsSaved = Pick<SettingsAnswer, "config_warning"> & { settings: SettingsDoc };
/** The sections a card edits (the writable groups of PUT /admin/settings). */
type Section = "runtime" | "compat" | "responses" | "embeddings" | "auto_delete" | "current_input_file" | "admin" | "release";
/** A section's fields by name: the cards list them as data (GROUPS), so they are read by key. */
const fieldsOf = (section: SettingsDoc[Section]): Record<string, unknown> => ({ ...section });

type Kind = "number" | "bool" | "text" | "secret" | { options: string[] };
interface Setting {
  key: string;
  label: string;
  kind: Kind;
  hint?: string;
}
interface Group {
  section: Section;
  title: string;
  fields: Setting[];
}

export const GROUPS: Group[] = [
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

export function SettingsGroup(props: { group: Group; values: SettingsDoc[Section]; onSaved: (s: SettingsDoc) => void }) {
  const { group } = props;
  const values = fieldsOf(props.values);
  const computed = (values.computed ?? {}) as Record<string, boolean>;
  const [initial, setInitial] = useState(() => initialDraft(group, values));
  const [draft, setDraft] = useState(initial);
  const form = useSubmit(async () => {
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
    if (Object.keys(body).length === 0) return t("Nothing changed.");
    const r = await api<SettingsSaved>("/admin/settings", { method: "PUT", body: { [group.section]: body } });
    const next = initialDraft(group, fieldsOf(r.settings[group.section]));
    setInitial(next);
    setDraft(next);
    props.onSaved(r.settings);
    return r.config_warning || t("Saved.");
  });
  return (
    <SubmitForm submit={form} class="card form" group={group.section}>
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
              hint={f.hint ? t(f.hint) : f.kind === "secret" && values.has_feed_token ? t("A token is stored.") : computed[f.key] ? t("Empty: computed from the accounts.") : undefined}
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
    </SubmitForm>
  );
}
