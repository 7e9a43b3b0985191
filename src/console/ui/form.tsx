// The console's one form skeleton: `useSubmit` runs an action and keeps its message, error and busy flag;
// `<SubmitForm>` lays out fields, the two alerts and the action buttons; `<ModalForm>` is that form in a dialog
// with Cancel. Every edit dialog and settings card uses these, so a form behaves the same on every page.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { Alert, Field, Modal, errText } from "./components";
import { t } from "./i18n";

/** An action: a returned text is shown as the success message; a thrown error's text as the error. */
export type Job = () => Promise<string | void>;

export interface Submit {
  msg: string;
  err: string;
  busy: boolean;
  /** Form submit handler: runs the hook's own action. */
  run: (e?: Event) => Promise<void>;
  /** Runs another action with the same message, error and busy flag (a card with several buttons). */
  runJob: (job: Job) => Promise<void>;
}

export function useSubmit(action?: Job): Submit {
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");
  const [busy, setBusy] = useState(false);
  const runJob = async (job: Job) => {
    // The last outcome is cleared first, so a stale error never stands beside a new success.
    setMsg("");
    setErr("");
    setBusy(true);
    try {
      const m = await job();
      if (m) setMsg(m);
    } catch (e) {
      setErr(errText(e));
    } finally {
      setBusy(false);
    }
  };
  const run = async (e?: Event) => {
    e?.preventDefault();
    if (action) await runJob(action);
  };
  return { msg, err, busy, run, runJob };
}

export function SubmitForm(props: {
  submit: Submit;
  /** Defaults to "form" (a dialog body); settings cards pass "card form". */
  class?: string;
  group?: string;
  label?: string;
  disabled?: boolean;
  /** With it, a Cancel button comes first. */
  onCancel?: () => void;
  /** Buttons placed before the submit button. */
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const { submit } = props;
  return (
    <form class={props.class ?? "form"} onSubmit={submit.run} data-group={props.group}>
      {props.children}
      <Alert kind="ok">{submit.msg}</Alert>
      <Alert>{submit.err}</Alert>
      <div class="form-actions">
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            {t("Cancel")}
          </button>
        ) : null}
        {props.actions}
        <button type="submit" class="primary" disabled={props.disabled}>
          {props.label ?? t("Save")}
        </button>
      </div>
    </form>
  );
}

export function ModalForm(props: { title: string; submit: Submit; onClose: () => void; label?: string; children: ComponentChildren }) {
  return (
    <Modal title={props.title} onClose={props.onClose}>
      <SubmitForm submit={props.submit} onCancel={props.onClose} label={props.label}>
        {props.children}
      </SubmitForm>
    </Modal>
  );
}

interface ImportSpec {
  title: string;
  /** The textarea's name and its field's label and hint. */
  name: string;
  label: string;
  hint: string;
  /** Reads the lines and sends them; answers the message to show, or throws the lines refused. */
  run: (text: string) => Promise<string>;
}

/**
 * A toolbar's "Batch import" button and its dialog: one text area of lines. The accounts and proxies pages differ
 * only in how they read the lines and where they send them; `onDone` gets the message once the dialog closed.
 */
export function ImportButton(props: ImportSpec & { onDone: (msg: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t("Batch import")}
      </button>
      {open ? <ImportDialog {...props} onClose={() => setOpen(false)} onDone={(m) => { setOpen(false); props.onDone(m); }} /> : null}
    </>
  );
}

function ImportDialog(props: ImportSpec & { onClose: () => void; onDone: (msg: string) => void }) {
  const [text, setText] = useState("");
  const form = useSubmit(async () => {
    props.onDone(await props.run(text));
  });
  return (
    <ModalForm title={props.title} submit={form} onClose={props.onClose} label={t("Import")}>
      <Field label={props.label} hint={props.hint}>
        <textarea name={props.name} rows={8} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </Field>
    </ModalForm>
  );
}
