// Managed API keys: add (with a random generator), copy, name/remark, delete; quota, today's usage, last use,
// enable/disable, expiry and allowed models (issue 31, the form's access part is key-access-fields.tsx).
import { useEffect, useState } from "preact/hooks";
import { api, enc } from "../api";
import { Alert, Badge, Field, copyText, errText, TableHead, DeleteButton, useLoader, NameRemarkFields } from "../components";
import { ModalForm, useSubmit } from "../form";
import { fmtTime, t } from "../i18n";
import { AccessFields, accessBody, initialAccess } from "./key-access-fields";
import type { KeyView, KeysView } from "../../../surfaces/admin/answer-schema";

/** A GET /admin/keys row as the server types it; the parts after the labels may be missing from an older gateway. */
export type KeyRow = Pick<KeyView, "key" | "name" | "remark"> & Partial<Omit<KeyView, "key" | "name" | "remark">>;

/** `sk-` and 32 random bytes in base64url: as long as a typical provider key, from the browser's CSPRNG. */
export function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return `sk-${btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
}

export function maskKey(k: string): string {
  return k.length <= 10 ? "•".repeat(k.length) : `${k.slice(0, 5)}…${k.slice(-4)}`;
}

export function Keys() {
  const [keys, setKeys] = useState<KeyRow[] | null>(null);
  const [editing, setEditing] = useState<KeyRow | "new" | null>(null);
  const [shown, setShown] = useState<Record<string, boolean>>({});
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");

  const load = useLoader(async () => {
    setKeys((await api<KeysView>("/admin/keys")).keys);
  }, setErr);

  return (
    <div class="stack">
      <div class="toolbar">
        <button type="button" class="primary" onClick={() => setEditing("new")}>
          {t("Add key")}
        </button>
      </div>
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="table-wrap">
        <table class="cards-on-phone">
          <TableHead cols={[t("Key"), t("Name"), t("Remark"), t("State"), t("Quota"), t("Today"), t("Last used"), t("Actions")]} />
          <tbody>
            {keys?.map((k) => (
              <tr key={k.key} data-key-name={k.name}>
                <td data-label={t("Key")}>
                  <code>{shown[k.key] ? k.key : maskKey(k.key)}</code>
                </td>
                <td data-label={t("Name")}>{k.name}</td>
                <td data-label={t("Remark")}>{k.remark}</td>
                <td data-label={t("State")} data-testid="key-state">
                  <Badge kind={k.state === "active" ? "ok" : k.state === "expired" ? "warn" : "bad"}>{t(k.state ?? "active")}</Badge>
                  {k.allowed_models?.length ? <span class="muted"> {k.allowed_models.join(", ")}</span> : null}
                </td>
                <td data-label={t("Quota")}>
                  {t("{r}/min, {d} tokens/day", { r: k.quota?.requests_per_minute ?? "∞", d: k.quota?.tokens_per_day ?? "∞" })}
                </td>
                <td data-label={t("Today")} data-testid="key-today">
                  {t("{n} requests, {k} tokens", { n: k.today?.requests ?? 0, k: k.today?.tokens ?? 0 })}
                </td>
                <td data-label={t("Last used")}>{k.last_used_at ? fmtTime(k.last_used_at) : t("never")}</td>
                <td data-label={t("Actions")} class="actions">
                  <button type="button" onClick={() => setShown({ ...shown, [k.key]: !shown[k.key] })}>
                    {shown[k.key] ? t("Hide") : t("Show")}
                  </button>
                  <button type="button" onClick={() => void copyText(k.key).then((ok) => ok && setMsg(t("Copied.")))}>
                    {t("Copy")}
                  </button>
                  <button type="button" onClick={() => setEditing(k)}>
                    {t("Edit")}
                  </button>
                  <DeleteButton question={t("Delete key {k}?", { k: k.name || maskKey(k.key) })} path={`/admin/keys/${enc(k.key)}`} onError={setErr} onDone={load} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {keys && keys.length === 0 ? <p class="muted empty">{t("No keys yet. Callers need a key for managed accounts.")}</p> : null}
      </div>
      {editing ? (
        <KeyForm
          row={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      ) : null}
    </div>
  );
}

function KeyForm(props: { row: KeyRow | null; onClose: () => void; onSaved: () => void }) {
  const r = props.row;
  const [key, setKey] = useState(r?.key ?? randomKey());
  const [name, setName] = useState(r?.name ?? "");
  const [remark, setRemark] = useState(r?.remark ?? "");
  const [access, setAccess] = useState(initialAccess(r));
  const form = useSubmit(async () => {
    const extra = accessBody(access);
    if (r) await api(`/admin/keys/${enc(r.key)}`, { method: "PUT", body: { name, remark, ...extra } });
    else await api("/admin/keys", { method: "POST", body: { key, name, remark, ...extra } });
    props.onSaved();
  });
  return (
    <ModalForm title={r ? t("Edit key") : t("Add key")} submit={form} onClose={props.onClose}>
      <Field label={t("Key")} hint={r ? t("A key cannot be changed; delete it and add a new one.") : undefined}>
        <div class="row">
          <input name="key" value={key} disabled={Boolean(r)} required onInput={(e) => setKey(e.currentTarget.value)} />
          {r ? null : (
            <button type="button" onClick={() => setKey(randomKey())}>
              {t("Generate")}
            </button>
          )}
        </div>
      </Field>
      <NameRemarkFields name={name} remark={remark} setName={setName} setRemark={setRemark} />
      <AccessFields value={access} onChange={setAccess} />
    </ModalForm>
  );
}
