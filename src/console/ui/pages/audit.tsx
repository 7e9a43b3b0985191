// The audit log (issue 31): admin writes and sign-ins, newest first, with what each changed (secrets masked by
// the server), filtered by outcome and actor, paged by cursor.
import { useEffect, useState } from "preact/hooks";
import "../ops.css";
import { Badge, PagedTable, usePaged } from "../components";
import { fmtTime, t } from "../i18n";
import type { AuditPage } from "../../../metering/audit";

// The entry the admin API sends is the server's own record (a type import: nothing of the server is bundled).
type Entry = AuditPage["items"][number];

export function Audit() {
  const [ok, setOk] = useState("");
  const page = usePaged<Entry>((c) => {
    const p = new URLSearchParams({ limit: "50" });
    if (ok) p.set("ok", ok);
    if (c) p.set("cursor", c);
    return `/admin/audit?${p}`;
  });
  useEffect(() => {
    void page.load();
  }, [ok]);
  return (
    <div class="stack">
      <div class="toolbar">
        <label>
          {t("Outcome")}{" "}
          <select name="ok" value={ok} onChange={(e) => setOk(e.currentTarget.value)}>
            <option value="">{t("Any")}</option>
            <option value="true">{t("Succeeded")}</option>
            <option value="false">{t("Failed")}</option>
          </select>
        </label>
      </div>
      <PagedTable page={page} testid="audit-rows" cols={[t("Time"), t("Actor"), t("Action"), t("Status"), t("Changes")]} empty={t("No admin changes recorded.")} row={(e) => (
          <tr key={e.seq}>
            <td data-label={t("Time")}>{fmtTime(new Date(e.ts).toISOString())}</td>
            <td data-label={t("Actor")}>
              {e.actor || "—"} <span class="muted">{e.client_ip}</span>
            </td>
            <td data-label={t("Action")}>
              <code>
                {e.method} {e.path}
              </code>
            </td>
            <td data-label={t("Status")}>
              <Badge kind={e.ok ? "ok" : "bad"}>{e.status}</Badge>
            </td>
            <td data-label={t("Changes")}>
              {e.changes.length === 0 ? (
                <span class="muted">—</span>
              ) : (
                <ul class="changes">
                  {e.changes.slice(0, 12).map((c) => (
                    <li key={c.path}>
                      <code>{c.path}</code>: {c.before ?? "∅"} → {c.after ?? "∅"}
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        )}
      />
    </div>
  );
}
