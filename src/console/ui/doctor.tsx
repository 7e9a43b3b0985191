// The console's doctor (issue 32): runs GET /admin/doctor and shows its table — check, result, what to do.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { Alert, Badge, Modal, errText, TableHead } from "./components";
import { t } from "./i18n";
import type { DoctorReport } from "../../doctor/checks";

const KIND = { ok: "ok", warn: "warn", fail: "bad", skip: "idle" } as const;

export function DoctorButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} data-testid="doctor-open">
        {t("Doctor")}
      </button>
      {open && <DoctorDialog onClose={() => setOpen(false)} />}
    </>
  );
}

function DoctorDialog(props: { onClose: () => void }) {
  const [report, setReport] = useState<DoctorReport | null>(null);
  const [err, setErr] = useState("");
  const wide = useRef<HTMLDivElement>(null);
  useEffect(() => {
    api<DoctorReport>("/admin/doctor").then(setReport, (e) => setErr(errText(e)));
  }, []);
  useEffect(() => {
    // Wider than the default dialog (styles.css is shared with other pages).
    const dialog = wide.current?.closest("dialog");
    if (dialog) dialog.style.width = "min(64rem, calc(100vw - 1.5rem))";
  }, []);
  return (
    <Modal title={t("Doctor")} onClose={props.onClose}>
      <div ref={wide} data-testid="doctor-dialog">
        <Alert>{err}</Alert>
        {!report && !err && <p class="muted">{t("Checking…")}</p>}
        {report && (
          <>
            <p data-testid="doctor-summary">
              {report.ok ? <Badge kind="ok">{t("No check failed")}</Badge> : <Badge kind="bad">{t("Some checks failed")}</Badge>}
            </p>
            <table class="cards-on-phone">
              <TableHead cols={[t("Check"), t("Result"), t("What to do")]} />
              <tbody>
                {report.checks.map((c, i) => (
                  <tr key={i}>
                    <td data-label={t("Check")}>
                      <Badge kind={KIND[c.status]}>{c.status}</Badge> {c.check}
                    </td>
                    <td data-label={t("Result")}>{c.result}</td>
                    <td data-label={t("What to do")}>{c.action || "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </Modal>
  );
}
