// The request log (issue 31): filters, a page of rows with "load more" by cursor, and a request's detail with its
// timeline drawn as a waterfall, its account, attempts and error, and links to its conversation and capture.
import { useEffect, useState } from "preact/hooks";
import "../ops.css";
import { api, enc } from "../api";
import { Alert, Badge, Modal, errText, PagedTable, usePaged } from "../components";
import { fmtTime, t } from "../i18n";
import type { Phase } from "../../../metering/timeline";
import type { LoggedRequest } from "../../../metering/request-log";
import type { RequestDetail } from "../../../surfaces/admin/requests-routes";

// The rows the admin API sends, as the server types them (type imports: nothing of the server is bundled): a
// page's rows, and the detail with its links.
export type Row = LoggedRequest & { links?: RequestDetail["links"] };

const RANGES: [string, number][] = [
  ["Last hour", 3_600_000],
  ["Last 24 hours", 86_400_000],
  ["Last 7 days", 7 * 86_400_000],
];
const STATUSES = ["", "2xx", "4xx", "429", "5xx"];
const SURFACES = ["", "chat", "responses", "messages", "generate", "embeddings", "files", "models", "admin", "unknown"];

function statusKind(r: Row): "ok" | "warn" | "bad" | "idle" {
  if (r.aborted) return "idle";
  if (r.status >= 500 || r.status === 429 || (r.status < 300 && r.error_code)) return "bad";
  if (r.status >= 400) return "warn";
  return "ok";
}

/** A filter chosen from a list whose empty value means any. */
function AnyOf(props: { name: string; label: string; options: string[]; value: string; onChange: (e: Event) => void }) {
  return (
    <label>
      <span>{props.label}</span>
      <select name={props.name} value={props.value} onChange={props.onChange}>
        {props.options.map((s) => (
          <option value={s} key={s}>
            {s || t("Any")}
          </option>
        ))}
      </select>
    </label>
  );
}

export function Requests() {
  const initial = location.hash.split("/")[2];
  const [filters, setFilters] = useState({ range: String(RANGES[1]![1]), status: "", error_code: "", key: "", model: "", surface: "", account: "", q: "" });
  const [open, setOpen] = useState<string | null>(initial ? decodeURIComponent(initial) : null);
  const page = usePaged<Row>((c) => {
    const p = new URLSearchParams({ limit: "50", from: String(Date.now() - Number(filters.range)) });
    for (const [k, v] of Object.entries(filters)) if (k !== "range" && v.trim()) p.set(k, v.trim());
    if (c) p.set("cursor", c);
    return `/admin/requests?${p}`;
  });
  const { load } = page;
  useEffect(() => {
    void load();
    // A link to another request (#/requests/<id>) while this page is open opens its detail.
    const onHash = () => {
      const id = location.hash.split("/")[2];
      if (id) setOpen(decodeURIComponent(id));
    };
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  const set = (k: keyof typeof filters) => (e: Event) => setFilters({ ...filters, [k]: (e.currentTarget as HTMLInputElement).value });

  return (
    <div class="stack">
      <form
        class="filters card"
        data-testid="request-filters"
        onSubmit={(e) => {
          e.preventDefault();
          void load();
        }}
      >
        <label>
          <span>{t("Time")}</span>
          <select name="range" value={filters.range} onChange={set("range")}>
            {RANGES.map(([label, ms]) => (
              <option value={String(ms)} key={label}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
        <AnyOf name="status" label={t("Status")} options={STATUSES} value={filters.status} onChange={set("status")} />
        <AnyOf name="surface" label={t("Surface")} options={SURFACES} value={filters.surface} onChange={set("surface")} />
        {(["error_code", "key", "model", "account", "q"] as const).map((k) => (
          <label key={k}>
            <span>{t({ error_code: "Error code", key: "Key", model: "Model", account: "Account", q: "Request id" }[k])}</span>
            <input name={k} value={filters[k]} onInput={set(k)} />
          </label>
        ))}
        <button type="submit" class="primary">
          {t("Apply")}
        </button>
      </form>
      <PagedTable page={page} testid="request-rows" cols={[t("Time"), t("Status"), t("Surface"), t("Model"), t("Key"), t("Account"), t("Duration"), t("First token")]} empty={t("No requests match.")} row={(r) => (
          <tr key={`${r.seq}`} data-request-id={r.request_id} class="clickable" onClick={() => setOpen(r.request_id)}>
            <td data-label={t("Time")}>
              <a href={`#/requests/${enc(r.request_id)}`}>{fmtTime(new Date(r.ts).toISOString())}</a>
            </td>
            <td data-label={t("Status")}>
              <Badge kind={statusKind(r)}>{r.aborted ? t("client left") : r.status}</Badge> {r.error_code ? <span class="muted">{r.error_code}</span> : null}
            </td>
            <td data-label={t("Surface")}>
              {r.surface}
              {r.stream ? " · SSE" : ""}
            </td>
            <td data-label={t("Model")}>{r.resolved_model || r.model}</td>
            <td data-label={t("Key")}>{r.key_name || (r.caller_kind === "passthrough" ? t("pass-through") : "")}</td>
            <td data-label={t("Account")}>{r.account}</td>
            <td data-label={t("Duration")}>{r.duration_ms} ms</td>
            <td data-label={t("First token")}>{r.ttft_ms === null ? "—" : `${Math.round(r.ttft_ms)} ms`}</td>
          </tr>
        )}
      />
      {open ? (
        <RequestDetail
          id={open}
          onClose={() => {
            setOpen(null);
            if (location.hash.startsWith("#/requests/")) history.replaceState(null, "", "#/requests");
          }}
        />
      ) : null}
    </div>
  );
}

const BARS: [keyof Row["timeline"], string][] = [
  ["queue", "Queue wait"],
  ["login", "Login"],
  ["session", "Session"],
  ["pow", "Proof of work"],
];

/** The timeline as horizontal bars on one time axis (SVG, no library): phases as spans, marks as ticks. */
export function Waterfall(props: { timeline: Row["timeline"] }) {
  const tl = props.timeline;
  const total = Math.max(tl.total_ms, 1);
  const spans: { label: string; start: number; end: number; kind: string }[] = [];
  for (const [k, label] of BARS) {
    const p = tl[k] as Phase | undefined;
    if (p) spans.push({ label: t(label), start: p.start_ms, end: p.start_ms + p.ms, kind: "phase" });
  }
  const coreStart = tl.core_first_byte_ms;
  if (coreStart !== undefined) spans.push({ label: t("Core answering"), start: coreStart, end: tl.last_byte_ms ?? total, kind: "core" });
  if (tl.first_token_ms !== undefined) spans.push({ label: t("First token to the client"), start: tl.first_token_ms, end: tl.first_token_ms, kind: "mark" });
  spans.push({ label: t("Total"), start: 0, end: total, kind: "total" });
  const W = 600;
  const ROW = 22;
  const LABEL = 170;
  const x = (ms: number) => LABEL + (Math.min(ms, total) / total) * (W - LABEL - 60);
  return (
    <svg class="waterfall" data-testid="waterfall" viewBox={`0 0 ${W} ${spans.length * ROW + 8}`} role="img" aria-label={t("Timeline")}>
      {spans.map((s, i) => (
        <g key={s.label} class={`wf-${s.kind}`}>
          <text x={4} y={i * ROW + 16}>
            {s.label}
          </text>
          {s.kind === "mark" ? (
            <rect x={x(s.start) - 1} y={i * ROW + 4} width={3} height={ROW - 8} />
          ) : (
            <rect x={x(s.start)} y={i * ROW + 4} width={Math.max(2, x(s.end) - x(s.start))} height={ROW - 8} rx={2} />
          )}
          <text x={Math.min(x(s.end) + 4, W - 56)} y={i * ROW + 16} class="wf-ms">
            {s.kind === "mark" ? `${Math.round(s.start)} ms` : `${Math.round(s.end - s.start)} ms`}
          </text>
        </g>
      ))}
    </svg>
  );
}

function RequestDetail(props: { id: string; onClose: () => void }) {
  const [row, setRow] = useState<Row | null>(null);
  const [err, setErr] = useState("");
  useEffect(() => {
    api<RequestDetail>(`/admin/requests/${enc(props.id)}`).then(setRow, (e) => setErr(errText(e)));
  }, [props.id]);
  return (
    <Modal title={t("Request {id}", { id: props.id })} onClose={props.onClose}>
      <Alert>{err}</Alert>
      {row ? (
        <div class="stack" data-testid="request-detail">
          <Waterfall timeline={row.timeline} />
          <dl class="meta">
            <dt>{t("Status")}</dt>
            <dd>
              <Badge kind={statusKind(row)}>{row.status}</Badge> {row.error_code} {row.aborted ? t("client left") : ""}
              {row.error_message ? <div class="muted" data-testid="request-error-message">{row.error_message}</div> : null}
            </dd>
            <dt>{t("Time")}</dt>
            <dd>{fmtTime(new Date(row.ts).toISOString())}</dd>
            <dt>{t("Route")}</dt>
            <dd>
              <code>
                {row.method} {row.path}
              </code>
            </dd>
            <dt>{t("Model")}</dt>
            <dd>
              {row.model}
              {row.resolved_model && row.resolved_model !== row.model ? ` → ${row.resolved_model}` : ""}
              {row.stream ? " · SSE" : ""}
            </dd>
            <dt>{t("Key")}</dt>
            <dd>{row.key_name || row.key_fp || row.caller_kind || "—"}</dd>
            <dt>{t("Account")}</dt>
            <dd data-testid="detail-account">{row.account || "—"}</dd>
            <dt>{t("Attempts")}</dt>
            <dd data-testid="detail-attempts">
              {t("{a} accounts, {c} core attempts, {e} empty-output retries, {r} continue rounds", {
                a: row.attempts.accounts,
                c: row.attempts.core_attempts,
                e: row.attempts.empty_output_retries,
                r: row.attempts.continue_rounds,
              })}
            </dd>
            <dt>{t("Tokens")}</dt>
            <dd>{t("{i} in, {o} out ({r} reasoning)", { i: row.input_tokens ?? "—", o: row.output_tokens ?? "—", r: row.reasoning_tokens ?? "—" })}</dd>
            <dt>{t("Client")}</dt>
            <dd>
              {row.client_ip} <span class="muted">{row.user_agent}</span>
            </dd>
          </dl>
          <p class="row">
            {row.links?.conversation ? (
              <a href={`#/conversations/${enc(row.links.conversation)}`} data-testid="conversation-link">
                {t("Open the conversation")}
              </a>
            ) : (
              <span class="muted">{t("No conversation recorded.")}</span>
            )}
            {row.links?.capture ? <CaptureLink id={row.links.capture} /> : null}
          </p>
        </div>
      ) : null}
    </Modal>
  );
}

function CaptureLink(props: { id: string }) {
  const [json, setJson] = useState("");
  return (
    <>
      <button type="button" onClick={() => api(`/admin/dev/raw-samples/query?q=${enc(props.id)}`).then((r) => setJson(JSON.stringify(r, null, 2)), (e) => setJson(errText(e)))}>
        {t("Show the capture")}
      </button>
      {json ? <pre class="capture">{json}</pre> : null}
    </>
  );
}
