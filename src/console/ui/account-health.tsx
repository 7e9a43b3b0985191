// Account health on the Accounts page (issue 32): a badge for an account that is out of rotation (why, until
// when), and a dialog with its state machine, failure counts and last 100 events, with the operator's two
// actions: probe now, and reset (re-enable an account waiting for the operator).
import { useEffect, useRef, useState } from "preact/hooks";
import { api, enc } from "./api";
import { Alert, Badge, Modal, errText, TableHead } from "./components";
import { fmtDuration, fmtTime, t } from "./i18n";

// The server's own types (type-only imports: nothing of the server enters the bundle).
import type { AccountHealth, HealthEvent, HealthState } from "../../accounts/health";

export type { HealthEvent, HealthState };
/** GET /admin/accounts/{id}/health, as the server builds it. */
export type HealthView = ReturnType<AccountHealth["view"]>;

const STATE_TEXT: Record<HealthState, string> = {
  healthy: "healthy",
  cooling_down: "cooling down",
  probing: "probing",
  disabled_pending_operator: "disabled, waiting for the operator",
};

/** Shown next to the test status when the health machine keeps the account out; nothing when healthy. */
export function HealthBadge(props: { state?: HealthState; cls?: string | null }) {
  const { state, cls } = props;
  if (!state || state === "healthy") return null;
  const kind = state === "disabled_pending_operator" ? "bad" : state === "probing" ? "info" : "warn";
  return (
    <Badge kind={kind}>
      <span data-testid="health-badge">
        {t(STATE_TEXT[state])}
        {cls ? ` · ${cls}` : ""}
      </span>
    </Badge>
  );
}

/** The "Health" action: opens the dialog for one account. */
export function HealthButton(props: { id: string; onChanged?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} data-testid="health-open">
        {t("Health")}
      </button>
      {open && (
        <HealthDialog
          id={props.id}
          onClose={() => {
            setOpen(false);
            props.onChanged?.();
          }}
        />
      )}
    </>
  );
}

function HealthDialog(props: { id: string; onClose: () => void }) {
  const [h, setH] = useState<HealthView | null>(null);
  const [err, setErr] = useState("");
  const [busy, setBusy] = useState(false);
  const path = `/admin/accounts/${enc(props.id)}/health`;
  // Wider than the default dialog: event details are sentences. Set here, as styles.css is shared with other pages.
  const wide = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const dialog = wide.current?.closest("dialog");
    if (dialog) dialog.style.width = "min(60rem, calc(100vw - 1.5rem))";
  }, [h !== null]);
  const load = async () => {
    try {
      setH(await api<HealthView>(path));
      setErr("");
    } catch (e) {
      setErr(errText(e));
    }
  };
  useEffect(() => {
    void load();
  }, [props.id]);
  const act = async (what: "probe" | "reset") => {
    setBusy(true);
    try {
      setH(await api<HealthView>(`${path}/${what}`, { method: "POST" }));
      setErr("");
    } catch (e) {
      setErr(errText(e));
    } finally {
      setBusy(false);
    }
  };
  const left = h?.until ? (Date.parse(h.until) - Date.now()) / 1000 : 0;
  const counts = Object.entries(h?.consecutive_failures ?? {});
  return (
    <Modal title={t("Health of {a}", { a: props.id })} onClose={props.onClose}>
      <Alert>{err}</Alert>
      {h && (
        <div data-testid="health-dialog" ref={wide}>
          <p>
            <HealthBadge state={h.state} cls={h.class} />
            {h.state === "healthy" && <Badge kind="ok">{t("healthy")}</Badge>}
            {left > 0 && <span> {t("probed in {t}", { t: fmtDuration(left) })}</span>}
          </p>
          <p class="muted">
            {t("Last success: {t}", { t: fmtTime(h.last_success_at) })} · {t("Last failure: {t}", { t: fmtTime(h.last_failure_at) })}
            {counts.length > 0 && ` · ${t("Failures in a row: {c}", { c: counts.map(([k, n]) => `${k} ${n}`).join(", ") })}`}
          </p>
          <div class="form-actions">
            <button type="button" disabled={busy || h.state === "healthy" || h.state === "probing"} onClick={() => void act("probe")}>
              {t("Probe now")}
            </button>
            <button type="button" disabled={busy || h.state === "healthy"} onClick={() => void act("reset")} data-testid="health-reset">
              {t("Reset health")}
            </button>
          </div>
          {h.events.length === 0 ? (
            <p class="muted">{t("No events yet.")}</p>
          ) : (
            <table class="cards-on-phone" data-testid="health-events">
              <TableHead cols={[t("Time"), t("Event"), t("Class"), t("Detail"), t("Request")]} />
              <tbody>
                {h.events.map((e, i) => (
                  <tr key={i}>
                    <td data-label={t("Time")}>{fmtTime(e.at)}</td>
                    <td data-label={t("Event")}>{t(e.kind)}</td>
                    <td data-label={t("Class")}>{e.class ?? "—"}</td>
                    <td data-label={t("Detail")}>{e.detail}</td>
                    <td data-label={t("Request")}>
                      <code>{e.request_id ?? "—"}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Modal>
  );
}
