// The Keys form's quota and access part (issue 31): enabled, expiry (a local date and time, sent as Unix
// seconds), allowed models (comma-separated ids; empty = all), requests per minute and tokens per day.
import { Field } from "../components";
import { t } from "../i18n";
import type { KeyView } from "../../../surfaces/admin/answer-schema";

/** The access part of a GET /admin/keys row, as the server types it. */
export type KeyAccessRow = Pick<KeyView, "enabled" | "expires_at" | "allowed_models" | "quota">;

export interface AccessForm {
  enabled: boolean;
  expires: string;
  models: string;
  rpm: string;
  tpd: string;
}

/** A Unix-seconds time as the value of an <input type="datetime-local"> (local time, minutes). */
function toLocalInput(unix: number | null | undefined): string {
  if (!unix) return "";
  const d = new Date(unix * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function initialAccess(r: Partial<KeyAccessRow> | null): AccessForm {
  return {
    enabled: r?.enabled !== false,
    expires: toLocalInput(r?.expires_at),
    models: (r?.allowed_models ?? []).join(", "),
    rpm: r?.quota?.requests_per_minute ? String(r.quota.requests_per_minute) : "",
    tpd: r?.quota?.tokens_per_day ? String(r.quota.tokens_per_day) : "",
  };
}

/** The PUT/POST body fields: null clears a field (enabled again, no expiry, every model, no limit). */
export function accessBody(f: AccessForm): Record<string, unknown> {
  const models = f.models.split(",").map((m) => m.trim()).filter(Boolean);
  const int = (s: string) => (s.trim() ? Number(s.trim()) : null);
  const rpm = int(f.rpm);
  const tpd = int(f.tpd);
  return {
    enabled: f.enabled ? null : false,
    expires_at: f.expires ? Math.floor(new Date(f.expires).getTime() / 1000) : null,
    allowed_models: models.length ? models : null,
    quota: rpm === null && tpd === null ? null : { requests_per_minute: rpm, tokens_per_day: tpd },
  };
}

export function AccessFields(props: { value: AccessForm; onChange: (v: AccessForm) => void }) {
  const v = props.value;
  const set = (patch: Partial<AccessForm>) => props.onChange({ ...v, ...patch });
  return (
    <>
      <label class="check">
        <input type="checkbox" name="enabled" checked={v.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} /> {t("Enabled")}
      </label>
      <Field label={t("Expires")} hint={t("Empty: never.")}>
        <input type="datetime-local" name="expires" value={v.expires} onInput={(e) => set({ expires: e.currentTarget.value })} />
      </Field>
      <Field label={t("Allowed models")} hint={t("Model ids, comma-separated. Empty: every model.")}>
        <input name="allowed_models" value={v.models} onInput={(e) => set({ models: e.currentTarget.value })} />
      </Field>
      <div class="row">
        <Field label={t("Requests per minute")} hint={t("Empty: no limit.")}>
          <input type="number" min={1} name="rpm" value={v.rpm} onInput={(e) => set({ rpm: e.currentTarget.value })} />
        </Field>
        <Field label={t("Tokens per day")} hint={t("Empty: no limit.")}>
          <input type="number" min={1} name="tpd" value={v.tpd} onInput={(e) => set({ tpd: e.currentTarget.value })} />
        </Field>
      </div>
    </>
  );
}
