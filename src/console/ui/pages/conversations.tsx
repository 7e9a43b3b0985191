// Chat history: the list (polled with If-None-Match, so an unchanged list costs a 304), filters, the detail
// of one conversation (polled the same way while it streams), retention limit, delete one / all.
// Every text from a conversation is rendered as text by Preact, never as HTML.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, enc, raw } from "../api";
import { Alert, Badge, Field, deleteAfterAsking, errText, TableHead, usePollLoop } from "../components";
import { useSubmit } from "../form";
import { fmtTime, t } from "../i18n";
// The answers as the server documents them (type-only imports: nothing of the server enters the bundle).
import type { HistoryEntry, HistoryList, HistorySettingsAnswer } from "../../../surfaces/admin/answer-schema-ops";

type List = HistoryList;
type Summary = List["items"][number];
type Detail = HistoryEntry["item"];

const POLL_MS = 2000;

/** GET with If-None-Match: null when the server says 304 (nothing changed). */
async function conditional<T>(path: string, etag: { current: string }): Promise<T | null> {
  const headers: Record<string, string> = etag.current ? { "If-None-Match": etag.current } : {};
  const res = await raw(path, { headers });
  if (res.status === 304) return null;
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error((body && (body.detail || body.error?.message)) || `HTTP ${res.status}`);
  etag.current = res.headers.get("ETag") ?? "";
  return body as T;
}

export function statusBadge(s: Summary["status"]) {
  const kind = s === "success" ? "ok" : s === "error" ? "bad" : s === "streaming" ? "info" : "warn";
  return <Badge kind={kind}>{t(s)}</Badge>;
}

function selectedFromHash(): string {
  return location.hash.replace(/^#\/?/, "").split("/")[1] ?? "";
}

export function Conversations() {
  const [list, setList] = useState<List | null>(null);
  const [selected, setSelected] = useState(selectedFromHash);
  const [status, setStatus] = useState("");
  const [surface, setSurface] = useState("");
  const [text, setText] = useState("");
  const [err, setErr] = useState("");
  const listTag = useRef("");

  usePollLoop(async (live) => {
    try {
      const l = await conditional<List>("/admin/chat-history", listTag);
      if (live() && l) setList(l);
    } catch (e) {
      if (live()) setErr(errText(e));
    }
    return POLL_MS;
  }, []);
  useEffect(() => {
    const onHash = () => setSelected(selectedFromHash());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  const refresh = async () => {
    listTag.current = "";
    const l = await conditional<List>("/admin/chat-history", listTag);
    if (l) setList(l);
  };

  const needle = text.trim().toLowerCase();
  const items = (list?.items ?? []).filter(
    (i) =>
      (!status || i.status === status) &&
      (!surface || i.surface === surface) &&
      (!needle || [i.model, i.preview, i.user_input_preview, i.account_id, i.source].some((f) => (f ?? "").toLowerCase().includes(needle))),
  );

  if (selected) return <ConversationDetail id={selected} onDeleted={() => void refresh()} />;

  return (
    <div class="stack">
      <div class="toolbar">
        <select aria-label={t("Status")} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
          <option value="">{t("All statuses")}</option>
          {["streaming", "success", "error", "stopped"].map((s) => (
            <option key={s} value={s}>
              {t(s)}
            </option>
          ))}
        </select>
        <select aria-label={t("Protocol")} value={surface} onChange={(e) => setSurface(e.currentTarget.value)}>
          <option value="">{t("All protocols")}</option>
          {["chat", "responses", "messages", "generate"].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <input type="search" placeholder={t("Filter by model, text or account")} aria-label={t("Filter by model, text or account")} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="button" class="danger" onClick={() => deleteAfterAsking(t("Delete every conversation?"), "/admin/chat-history", refresh, setErr)}>
          {t("Delete all")}
        </button>
      </div>
      <Alert>{err}</Alert>
      {list ? <Retention limit={list.limit} total={list.total} persisted={list.persisted} onSaved={() => void refresh()} /> : null}
      <div class="table-wrap">
        <table class="cards-on-phone">
          <TableHead cols={[t("Time"), t("Status"), t("Model"), t("Question"), t("Answer")]} />
          <tbody>
            {items.map((i) => (
              <tr key={i.id} data-conversation={i.id}>
                <td data-label={t("Time")}>
                  <a href={`#/conversations/${i.id}`}>{fmtTime(i.created_at)}</a>
                  <div class="muted small">{i.surface}{i.stream ? " · stream" : ""}</div>
                </td>
                <td data-label={t("Status")}>{statusBadge(i.status)}</td>
                <td data-label={t("Model")}>{i.model}</td>
                <td data-label={t("Question")} class="clip">{i.user_input_preview}</td>
                <td data-label={t("Answer")} class="clip">{i.preview || (i.finish_reason === "tool_calls" ? `→ ${t("Tool call")}` : i.error_code || "")}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list && items.length === 0 ? <p class="muted empty">{list.limit === 0 ? t("Chat history is off (limit 0).") : t("No conversations.")}</p> : null}
      </div>
    </div>
  );
}

function Retention(props: { limit: number; total: number; persisted: boolean; onSaved: () => void }) {
  const [limit, setLimit] = useState(String(props.limit));
  const form = useSubmit(async () => {
    const r = await api<HistorySettingsAnswer>("/admin/chat-history/settings", { method: "PUT", body: { limit: Number(limit) } });
    props.onSaved();
    return t("Keeping the last {n} conversations.", { n: r.limit });
  });
  return (
    <form class="card row wrap" onSubmit={form.run}>
      <Field label={t("Conversations kept (0 turns recording off)")}>
        <input name="limit" inputMode="numeric" value={limit} onInput={(e) => setLimit(e.currentTarget.value)} />
      </Field>
      <button type="submit">{t("Save")}</button>
      <span class="muted small">
        {t("{n} stored", { n: props.total })} · {props.persisted ? t("saved on disk") : t("in memory only")}
      </span>
      <Alert kind="ok">{form.msg}</Alert>
      <Alert>{form.err}</Alert>
    </form>
  );
}

function contentText(c: unknown): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === "string" ? p : p && typeof p === "object" && typeof (p as any).text === "string" ? (p as any).text : JSON.stringify(p))).join("\n");
  return c == null ? "" : JSON.stringify(c, null, 2);
}

function ConversationDetail(props: { id: string; onDeleted: () => void }) {
  const [item, setItem] = useState<Detail | null>(null);
  const [err, setErr] = useState("");
  const tag = useRef("");
  const streaming = useRef(true);

  usePollLoop(async (live) => {
    try {
      const r = await conditional<HistoryEntry>(`/admin/chat-history/${enc(props.id)}`, tag);
      if (live() && r) {
        setItem(r.item);
        streaming.current = r.item.status === "streaming";
      }
    } catch (e) {
      if (live()) setErr(errText(e));
      streaming.current = false;
    }
    // Only a conversation still streaming changes; a finished one is read once.
    return streaming.current ? 1000 : null;
  }, [props.id]);

  // After a delete: the list reloads and the page goes back to it.
  const leave = () => {
    props.onDeleted();
    location.hash = "#/conversations";
  };

  return (
    <div class="stack" data-testid="conversation-detail">
      <div class="toolbar">
        <a href="#/conversations" class="button">
          ← {t("All conversations")}
        </a>
        {item ? (
          <button type="button" class="danger" onClick={() => deleteAfterAsking(t("Delete this conversation?"), `/admin/chat-history/${enc(props.id)}`, leave, setErr)}>
            {t("Delete")}
          </button>
        ) : null}
      </div>
      <Alert>{err}</Alert>
      {item ? (
        <>
          <section class="card">
            <h2>
              {statusBadge(item.status)} {item.model}
            </h2>
            <dl class="meta">
              <dt>{t("Id")}</dt>
              <dd>
                <code>{item.id}</code>
              </dd>
              <dt>{t("Protocol")}</dt>
              <dd>{item.surface}{item.stream ? " · stream" : ""}</dd>
              <dt>{t("Resolved model")}</dt>
              <dd>{item.resolved_model || "—"}</dd>
              <dt>{t("Account")}</dt>
              <dd>{item.account_id || t("pass-through")}</dd>
              <dt>{t("Source")}</dt>
              <dd>{item.source || "—"}</dd>
              <dt>{t("HTTP status")}</dt>
              <dd>{item.status_code || "—"}</dd>
              <dt>{t("Finish reason")}</dt>
              <dd>{item.finish_reason ?? "—"}</dd>
              <dt>{t("Started")}</dt>
              <dd>{fmtTime(item.created_at)}</dd>
              <dt>{t("Duration")}</dt>
              <dd>{item.elapsed_ms == null ? "—" : `${item.elapsed_ms} ms`}{item.first_token_ms == null ? "" : ` (${t("first token {n} ms", { n: item.first_token_ms })})`}</dd>
              <dt>{t("Tokens")}</dt>
              <dd>{t("{i} in, {o} out, {r} reasoning", { i: item.usage.input_tokens, o: item.usage.output_tokens, r: item.usage.reasoning_tokens })}</dd>
            </dl>
            {item.truncated ? <Alert kind="info">{t("Some fields were cut at 1 MiB.")}</Alert> : null}
            {item.error ? <Alert>{`${item.error.code}: ${item.error.message}`}</Alert> : null}
          </section>
          <section class="card">
            <h2>{t("Messages")}</h2>
            {item.request_messages.map((m, i) => (
              <article key={i} class={`msg msg-${m.role === "assistant" ? "assistant" : "user"}`}>
                <header class="muted small">{m.role}</header>
                <div class="msg-text" data-testid="request-message">{contentText(m.content)}</div>
              </article>
            ))}
            <article class="msg msg-assistant" data-testid="answer">
              <header class="muted small">{t("Answer")}</header>
              {item.reasoning ? (
                <details class="reasoning">
                  <summary>{t("Reasoning")}</summary>
                  <pre>{item.reasoning}</pre>
                </details>
              ) : null}
              {item.content ? <div class="msg-text">{item.content}</div> : null}
              {item.tool_calls.map((c) => (
                <div class="tool-call" key={c.id} data-testid="tool-call">
                  <span class="badge badge-info">{t("Tool call")}</span> <code>{c.name}</code>
                  <pre>{c.arguments}</pre>
                </div>
              ))}
            </article>
          </section>
          <section class="card">
            <details>
              <summary>{t("Final prompt sent to core")}</summary>
              <pre class="prompt" data-testid="final-prompt">{item.final_prompt}</pre>
            </details>
            {item.current_input_file ? (
              <details>
                <summary>{t("Context file sent to core")}</summary>
                <pre class="prompt">{item.current_input_file}</pre>
              </details>
            ) : null}
          </section>
        </>
      ) : err ? null : (
        <p class="muted">{t("Loading…")}</p>
      )}
    </div>
  );
}
