// Models (issue 31): the native models, every name that resolves (built-in and configured aliases, the family
// heuristic, retired names) and where each goes, with a box to try a name.
import { useEffect, useState } from "preact/hooks";
import { api, enc } from "../api";
import { Alert, Badge, errText, ListCard, TableHead } from "../components";
import { t } from "../i18n";
// The server's own type (type-only: nothing of the server enters the bundle).
import type { ModelsView } from "../../../surfaces/admin/answer-schema-ops";

type Models = ModelsView;

export function ModelsPage() {
  const [m, setM] = useState<Models | null>(null);
  const [name, setName] = useState("");
  const [tried, setTried] = useState<Models["resolve"] | null>(null);
  const [err, setErr] = useState("");
  useEffect(() => {
    api<Models>("/admin/models").then(setM, (e) => setErr(errText(e)));
  }, []);
  return (
    <div class="stack">
      <Alert>{err}</Alert>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          api<Models>(`/admin/models?resolve=${enc(name)}`).then((r) => setTried(r.resolve ?? null), (e2) => setErr(errText(e2)));
        }}
      >
        <input name="resolve" placeholder={t("Try a model name")} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">{t("Resolve")}</button>
        {tried ? (
          <span data-testid="resolved">
            {tried.ok ? <Badge kind="ok">{tried.id}</Badge> : <Badge kind="bad">{tried.code}</Badge>} <span class="muted">{tried.message ?? ""}</span>
          </span>
        ) : null}
      </form>
      <ListCard title={t("Native models")} testid="native-models" items={m?.native} item={(n) => <li key={n.id}><code>{n.id}</code> <span class="muted">{n.model_type}</span></li>} />
      <ListCard title={t("Configured aliases")} empty={t("None. Add them in Settings.")} items={m?.configured_aliases} item={(a) => <li key={a.name}><code>{a.name}</code> → <code>{a.target}</code></li>} />
      <section class="card">
        <h2>{t("Built-in aliases")}</h2>
        <div class="table-wrap">
          <table class="cards-on-phone" data-testid="builtin-aliases">
            <TableHead cols={[t("Family"), t("Goes to"), t("Names")]} />
            <tbody>
              {m?.builtin_aliases.map((g) => (
                <tr key={`${g.family}-${g.target}`}>
                  <td data-label={t("Family")}>{g.family}</td>
                  <td data-label={t("Goes to")}>
                    <code>{g.target}</code>
                  </td>
                  <td data-label={t("Names")}>{g.names.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class="muted">{t("Every name also resolves with -nothinking appended.")}</p>
      </section>
      <ListCard title={t("Family heuristic")} items={m?.heuristic} item={(h) => <li key={h.when}>{h.when} → <code>{h.target}</code></li>} />
      <ListCard title={t("Retired names")} note={t("Refused with model_retired unless a configured alias revives them.")} items={m?.retired_patterns} item={(p) => <li key={p}><code>{p}</code></li>} />
    </div>
  );
}
