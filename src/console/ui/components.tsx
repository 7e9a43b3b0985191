// Small shared pieces: modal dialog, badges, messages, form fields, and a polling hook.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n";

export function Modal(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} class="modal" aria-label={props.title} onClose={props.onClose} onCancel={props.onClose}>
      <header class="modal-head">
        <h2>{props.title}</h2>
        <button type="button" class="icon" aria-label={t("Close")} onClick={props.onClose}>
          ×
        </button>
      </header>
      {props.children}
    </dialog>
  );
}

export function Badge(props: { kind: "ok" | "warn" | "bad" | "idle" | "info"; children: ComponentChildren }) {
  return <span class={`badge badge-${props.kind}`}>{props.children}</span>;
}

export function Alert(props: { kind?: "error" | "ok" | "info"; children: ComponentChildren }) {
  if (!props.children) return null;
  return (
    <div class={`alert alert-${props.kind ?? "error"}`} role={props.kind === "error" || !props.kind ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

export function Field(props: { label: string; hint?: string; children: ComponentChildren }) {
  return (
    <label class="field">
      <span class="field-label">{props.label}</span>
      {props.children}
      {props.hint ? <span class="field-hint">{props.hint}</span> : null}
    </label>
  );
}

/** Runs `fn` now and every `ms` while the page is mounted; the latest error is kept for display. */
export function usePoll(fn: () => Promise<void>, ms: number, deps: unknown[] = []): string {
  const [err, setErr] = useState("");
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        await fn();
        if (alive) setErr("");
      } catch (e) {
        if (alive) setErr((e as Error).message);
      }
      if (alive) timer = setTimeout(tick, ms);
    };
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, deps);
  return err;
}

export function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Copies text; falls back to a prompt the operator can copy from when the clipboard API is unavailable. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    window.prompt(t("Copy:"), text);
    return false;
  }
}

/** A table's header row: the column titles, already translated (each a literal t call, which the i18n test reads). */
export function TableHead(props: { cols: string[] }) {
  return (
    <thead>
      <tr>
        {props.cols.map((c, i) => (
          <th key={i}>{c}</th>
        ))}
      </tr>
    </thead>
  );
}
