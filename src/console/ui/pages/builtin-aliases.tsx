// The built-in alias table under the Settings alias editor (issue 31): what a name resolves to before any
// configured alias, folded away until asked for. The Models page has the whole picture.
import { useState } from "preact/hooks";
import { api } from "../api";
import { t } from "../i18n";
// The answers as the server documents them (type-only imports: nothing of the server enters the bundle).
import type { ModelsView } from "../../../surfaces/admin/answer-schema-ops";

export function BuiltinAliases() {
  const [groups, setGroups] = useState<ModelsView["builtin_aliases"] | null>(null);
  return (
    <details
      data-testid="builtin-aliases-settings"
      onToggle={(e) => {
        if ((e.currentTarget as HTMLDetailsElement).open && !groups) api<ModelsView>("/admin/models").then((m) => setGroups(m.builtin_aliases), () => setGroups([]));
      }}
    >
      <summary>{t("Built-in aliases")}</summary>
      <ul class="list small">
        {groups?.map((g) => (
          <li key={`${g.family}-${g.target}`}>
            <code>{g.target}</code> ← {g.names.join(", ")}
          </li>
        ))}
      </ul>
      <p class="muted small">
        <a href="#/models">{t("Every name that resolves, on the Models page")}</a>
      </p>
    </details>
  );
}
