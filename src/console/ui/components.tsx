// Small shared pieces: modal dialog, badges, messages, form fields, and a polling hook.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n";
import { api } from "./api";

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

/**
 * Runs `step` now and again after the delay it answers (null: no more) while the page is mounted and its deps
 * stay; `live()` turns false when they do not, so a step that finishes late leaves the state alone. `step`
 * handles its own errors.
 */
export function usePollLoop(step: (live: () => boolean) => Promise<number | null>, deps: unknown[]): void {
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      const next = await step(() => alive);
      if (alive && next !== null) timer = setTimeout(tick, next);
    };
    void tick();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, deps);
}

/** Runs `fn` now and every `ms` while the page is mounted; the latest error is kept for display. */
export function usePoll(fn: () => Promise<void>, ms: number, deps: unknown[] = []): string {
  const [err, setErr] = useState("");
  usePollLoop(async (live) => {
    try {
      await fn();
      if (live()) setErr("");
    } catch (e) {
      if (live()) setErr((e as Error).message);
    }
    return ms;
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

/**
 * A titled card holding a list: an optional note above it, and the `empty` line once the list has loaded with
 * nothing in it (nothing is said while it loads). `item` renders one entry as its keyed <li>.
 */
export function ListCard<T>(props: { title: string; items: readonly T[] | undefined; item: (entry: T) => ComponentChildren; note?: string; empty?: string; testid?: string }) {
  return (
    <section class="card">
      <h2>{props.title}</h2>
      {props.note ? <p class="muted">{props.note}</p> : null}
      {props.empty && props.items?.length === 0 ? <p class="muted">{props.empty}</p> : null}
      <ul class="list" data-testid={props.testid}>
        {props.items?.map((entry) => props.item(entry))}
      </ul>
    </section>
  );
}

/** The button under a paged table: shown while the server has a next page (its cursor). */
export function LoadMore(props: { cursor: string | null | undefined; onMore: () => void }) {
  if (!props.cursor) return null;
  return (
    <button type="button" onClick={props.onMore}>
      {t("Load more")}
    </button>
  );
}

export interface Paged<T> {
  items: T[] | null;
  cursor: string | null;
  err: string;
  load: (more?: boolean) => Promise<void>;
}

/**
 * A table paged by cursor (the admin API's {items, next_cursor}): `load()` reads the first page, `load(true)`
 * appends the next; `url` gets the cursor to ask from (null: the first page). A failure is kept in `err`.
 */
export function usePaged<T>(url: (cursor: string | null) => string): Paged<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [err, setErr] = useState("");
  const load = async (more = false) => {
    try {
      const page = await api<{ items: T[]; next_cursor: string | null }>(url(more ? cursor : null));
      setItems(more ? [...(items ?? []), ...page.items] : page.items);
      setCursor(page.next_cursor);
      setErr("");
    } catch (e) {
      setErr(errText(e));
    }
  };
  return { items, cursor, err, load };
}

/** Asks, then DELETEs `path` and runs `then`; a failure of either goes to `onError` (nothing runs after it). */
export async function deleteAfterAsking(question: string, path: string, then: () => unknown, onError: (msg: string) => void): Promise<void> {
  if (!confirm(question)) return;
  try {
    await api(path, { method: "DELETE" });
    await then();
  } catch (e) {
    onError(errText(e));
  }
}

/** A paged table: the load error above it, the `empty` line once a load found nothing, Load more below it. */
export function PagedTable<T>(props: { page: Paged<T>; testid: string; cols: string[]; empty: string; row: (item: T) => ComponentChildren }) {
  const { items, cursor, err, load } = props.page;
  return (
    <>
      <Alert>{err}</Alert>
      <div class="table-wrap">
        <table class="cards-on-phone" data-testid={props.testid}>
          <TableHead cols={props.cols} />
          <tbody>{items?.map((item) => props.row(item))}</tbody>
        </table>
        {items && items.length === 0 ? <p class="muted empty">{props.empty}</p> : null}
      </div>
      <LoadMore cursor={cursor} onMore={() => void load(true)} />
    </>
  );
}

/** A row's Delete button: asks first, shows a failure in the page's alert, then reloads the page's data. */
export function DeleteButton(props: { question: string; path: string; onError: (msg: string) => void; onDone: () => Promise<void> }) {
  const remove = async () => {
    if (!confirm(props.question)) return;
    try {
      await api(props.path, { method: "DELETE" });
    } catch (e) {
      props.onError(errText(e));
    }
    await props.onDone();
  };
  return (
    <button type="button" class="danger" onClick={() => void remove()}>
      {t("Delete")}
    </button>
  );
}

/** A page's data loader, run once on mount and again on demand (after a write); a failure goes to the page's alert. */
export function useLoader(fetchInto: () => Promise<void>, onError: (msg: string) => void): () => Promise<void> {
  const load = async () => {
    try {
      await fetchInto();
    } catch (e) {
      onError(errText(e));
    }
  };
  useEffect(() => {
    void load();
  }, []);
  return load;
}

/** The Name and Remark inputs that keys and accounts share. */
export function NameRemarkFields(props: { name: string; remark: string; setName: (v: string) => void; setRemark: (v: string) => void }) {
  return (
    <>
      <Field label={t("Name")}>
        <input name="name" value={props.name} onInput={(e) => props.setName(e.currentTarget.value)} />
      </Field>
      <Field label={t("Remark")}>
        <input name="remark" value={props.remark} onInput={(e) => props.setRemark(e.currentTarget.value)} />
      </Field>
    </>
  );
}
