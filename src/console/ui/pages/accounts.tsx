// Managed accounts: paged search, status badges, add/edit/delete, proxy binding, test one, test all (run
// here five at a time, so progress is visible), delete an account's sessions, batch import.
import { useEffect, useState } from "preact/hooks";
import { api, enc } from "../api";
import { Alert, Badge, Field, errText, TableHead, NameRemarkFields } from "../components";
import { ImportButton, ModalForm, useSubmit } from "../form";
import { fmtDuration, t } from "../i18n";
import { parseAccountLines } from "../import-parse";
import type { AccountAnswer, AccountRecord, AccountsPage, BulkImportAnswer, DeleteSessionsAnswer } from "../../../surfaces/admin/answer-schema-ops";
import type { ProxiesView } from "../../../surfaces/admin/answer-schema";
import { HealthBadge, HealthButton } from "../account-health";
import { DoctorButton } from "../doctor";
import type { AccountTestResult } from "../../../accounts/operations";

// The API's own answer types (type-only imports: nothing of the server enters the bundle).
type AccountRow = AccountRecord;
type Page = AccountsPage;

type TestResult = AccountTestResult;

const TEST_CONCURRENCY = 5;
// Session counts come from test results (the account record has none); kept while the console is open.
const sessionCounts: Record<string, number> = {};

export function StatusBadge(props: { a: AccountRow }) {
  const { a } = props;
  const left = a.cooldown_until ? (Date.parse(a.cooldown_until) - Date.now()) / 1000 : 0;
  if (left > 0) return <Badge kind="warn">{t("cooling down, {t} left", { t: fmtDuration(left) })}</Badge>;
  if (a.test_status === "ok") return <Badge kind="ok">{t("ok")}</Badge>;
  if (a.test_status === "failed") return <Badge kind="bad">{t("login failed")}</Badge>;
  return <Badge kind="idle">{t("untested")}</Badge>;
}

export function Accounts() {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page | null>(null);
  const [proxies, setProxies] = useState<ProxiesView["items"]>([]);
  const [sessions, setSessionsState] = useState<Record<string, number>>(() => ({ ...sessionCounts }));
  const setSessions = (fn: (s: Record<string, number>) => Record<string, number>) =>
    setSessionsState((s) => {
      const next = fn(s);
      Object.assign(sessionCounts, next);
      return next;
    });
  const [busy, setBusy] = useState<Record<string, boolean>>({});
  const [progress, setProgress] = useState<{ done: number; total: number; failed: number } | null>(null);
  const [editing, setEditing] = useState<AccountRow | "new" | null>(null);
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");

  const load = async () => {
    try {
      setData(await api<Page>(`/admin/accounts?page=${page}&page_size=10&q=${enc(q)}`));
      setErr("");
    } catch (e) {
      setErr(errText(e));
    }
  };
  useEffect(() => {
    void load();
  }, [page, q]);
  useEffect(() => {
    api<ProxiesView>("/admin/proxies").then((r) => setProxies(r.items), () => {});
  }, []);

  const testOne = async (id: string): Promise<boolean> => {
    setBusy((b) => ({ ...b, [id]: true }));
    try {
      const r = await api<TestResult>("/admin/accounts/test", { method: "POST", body: { identifier: id, message: "" } });
      setSessions((s) => ({ ...s, [id]: r.session_count }));
      return r.success;
    } catch (e) {
      setErr(errText(e));
      return false;
    } finally {
      setBusy((b) => ({ ...b, [id]: false }));
    }
  };

  const testAll = async () => {
    setMsg("");
    const all = await api<Page>("/admin/accounts?page=1&page_size=5000");
    const ids = all.items.map((a) => a.identifier);
    const state = { done: 0, total: ids.length, failed: 0 };
    setProgress({ ...state });
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const ok = await testOne(id);
        state.done++;
        if (!ok) state.failed++;
        setProgress({ ...state });
      }
    };
    await Promise.all(Array.from({ length: TEST_CONCURRENCY }, worker));
    setProgress(null);
    setMsg(t("Tested {n} accounts: {f} failed.", { n: state.total, f: state.failed }));
    await load();
  };

  const action = async (fn: () => Promise<unknown>, done?: string) => {
    setErr("");
    setMsg("");
    try {
      await fn();
      if (done) setMsg(done);
    } catch (e) {
      setErr(errText(e));
    }
    await load();
  };

  return (
    <div class="stack">
      <div class="toolbar">
        <input type="search" placeholder={t("Search accounts")} aria-label={t("Search accounts")} value={q} onInput={(e) => { setQ(e.currentTarget.value); setPage(1); }} />
        <button type="button" class="primary" onClick={() => setEditing("new")}>
          {t("Add account")}
        </button>
        <ImportButton title={t("Batch import accounts")} name="accounts" label={t("One account per line or a JSON array")} hint={t("Lines: email:password, mobile:password, or token:<token>. JSON: [{\"email\", \"password\", \"token\"}].")} run={importAccounts} onDone={(m) => { setMsg(m); void load(); }} />
        <DoctorButton />
        <button type="button" onClick={() => void testAll()} disabled={progress !== null} data-testid="test-all">
          {t("Test all")}
        </button>
      </div>
      {progress ? (
        <div class="progress" role="status" data-testid="test-progress">
          <progress max={progress.total} value={progress.done} />
          <span>{t("Testing {d} of {n}…", { d: progress.done, n: progress.total })}</span>
        </div>
      ) : null}
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="table-wrap">
        <table class="cards-on-phone">
          <TableHead cols={[t("Account"), t("Status"), t("Sessions"), t("In flight"), t("Proxy"), t("Actions")]} />
          <tbody>
            {data?.items.map((a) => (
              <tr key={a.identifier} data-account={a.identifier}>
                <td data-label={t("Account")}>
                  <div>{a.email || a.mobile || a.identifier}</div>
                  <div class="muted small">{[a.name, a.remark].filter(Boolean).join(" · ")}</div>
                </td>
                <td data-label={t("Status")}>
                  <StatusBadge a={a} /> <HealthBadge state={a.health_state} cls={a.health_class} />
                  {a.test_status === "failed" && a.test_message ? <div class="muted small">{a.test_message}</div> : null}
                </td>
                <td data-label={t("Sessions")}>{sessions[a.identifier] ?? "—"}</td>
                <td data-label={t("In flight")}>{a.in_flight}</td>
                <td data-label={t("Proxy")}>
                  <select
                    aria-label={t("Proxy for {a}", { a: a.identifier })}
                    value={a.proxy_id}
                    onChange={(e) => {
                      const proxy_id = e.currentTarget.value;
                      void action(() => api(`/admin/accounts/${enc(a.identifier)}/proxy`, { method: "PUT", body: { proxy_id } }));
                    }}
                  >
                    <option value="">{t("Direct")}</option>
                    {proxies.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </select>
                </td>
                <td data-label={t("Actions")} class="actions">
                  <button type="button" disabled={busy[a.identifier]} onClick={() => void testOne(a.identifier).then(load)}>
                    {busy[a.identifier] ? t("Testing…") : t("Test")}
                  </button>
                  <HealthButton id={a.identifier} onChanged={() => void load()} />
                  <button type="button" onClick={() => setEditing(a)}>
                    {t("Edit")}
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      confirm(t("Delete all sessions of {a} on core?", { a: a.identifier })) &&
                      void action(async () => {
                        const r = await api<DeleteSessionsAnswer>("/admin/accounts/sessions/delete-all", { method: "POST", body: { identifier: a.identifier } });
                        if (!r.success) throw new Error(r.message);
                        setSessions((s) => ({ ...s, [a.identifier]: 0 }));
                      }, t("Sessions deleted."))
                    }
                  >
                    {t("Delete sessions")}
                  </button>
                  <button type="button" class="danger" onClick={() => confirm(t("Delete account {a}?", { a: a.identifier })) && void action(() => api(`/admin/accounts/${enc(a.identifier)}`, { method: "DELETE" }))}>
                    {t("Delete")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.items.length === 0 ? <p class="muted empty">{q ? t("No account matches.") : t("No accounts yet. Add one or import a list.")}</p> : null}
      </div>
      {data && data.total_pages > 1 ? (
        <div class="pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t("Previous")}
          </button>
          <span>{t("Page {p} of {n} ({t} accounts)", { p: data.page, n: data.total_pages, t: data.total })}</span>
          <button type="button" disabled={page >= data.total_pages} onClick={() => setPage(page + 1)}>
            {t("Next")}
          </button>
        </div>
      ) : data ? (
        <p class="muted">{t("{t} accounts", { t: data.total })}</p>
      ) : null}
      {editing ? (
        <AccountForm
          account={editing === "new" ? null : editing}
          proxies={proxies}
          onClose={() => setEditing(null)}
          onSaved={async (id, isNew) => {
            setEditing(null);
            await load();
            // A new account is tested at once, so the operator sees whether its login works.
            if (isNew) {
              await testOne(id);
              await load();
            }
          }}
        />
      ) : null}
    </div>
  );
}

function AccountForm(props: { account: AccountRow | null; proxies: { id: string; name: string }[]; onClose: () => void; onSaved: (id: string, isNew: boolean) => void }) {
  const a = props.account;
  const [login, setLogin] = useState(a ? a.email || a.mobile : "");
  const [password, setPassword] = useState("");
  const [token, setTokenValue] = useState("");
  const [name, setName] = useState(a?.name ?? "");
  const [remark, setRemark] = useState(a?.remark ?? "");
  const [proxy, setProxy] = useState(a?.proxy_id ?? "");
  const form = useSubmit(async () => {
    if (a) {
      await api(`/admin/accounts/${enc(a.identifier)}`, { method: "PUT", body: { name, remark, password, token } });
      if (proxy !== a.proxy_id) await api(`/admin/accounts/${enc(a.identifier)}/proxy`, { method: "PUT", body: { proxy_id: proxy } });
      props.onSaved(a.identifier, false);
    } else {
      const isMobile = /^\+?[\d\s-]{6,}$/.test(login.trim());
      const body: Record<string, string> = { password, token, name, remark, proxy_id: proxy };
      if (login.trim()) body[isMobile ? "mobile" : "email"] = login.trim();
      const r = await api<AccountAnswer>("/admin/accounts", { method: "POST", body });
      props.onSaved(r.identifier, true);
    }
  });

  return (
    <ModalForm title={a ? t("Edit account") : t("Add account")} submit={form} onClose={props.onClose}>
      <Field label={t("Email or mobile")} hint={a ? t("The login of an account cannot be changed.") : t("Leave empty for a token-only account.")}>
        <input name="login" value={login} disabled={Boolean(a)} onInput={(e) => setLogin(e.currentTarget.value)} />
      </Field>
      <Field label={t("Password")} hint={a?.has_password ? t("Leave empty to keep the stored password.") : undefined}>
        <input name="password" type="password" autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </Field>
      <Field label={t("Token (optional)")} hint={a?.has_token ? t("Stored: {p}", { p: a.token_preview }) : undefined}>
        <input name="token" type="password" autoComplete="off" value={token} onInput={(e) => setTokenValue(e.currentTarget.value)} />
      </Field>
      <NameRemarkFields name={name} remark={remark} setName={setName} setRemark={setRemark} />
      <Field label={t("Proxy")}>
        <select name="proxy" value={proxy} onChange={(e) => setProxy(e.currentTarget.value)}>
          <option value="">{t("Direct")}</option>
          {props.proxies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
    </ModalForm>
  );
}

async function importAccounts(text: string): Promise<string> {
  const accounts = parseAccountLines(text);
  if (accounts.length === 0) throw new Error(t("Nothing to import."));
  const r = await api<BulkImportAnswer>("/admin/import", { method: "POST", body: { accounts } });
  return t("Imported {n} accounts, skipped {s}.", { n: r.imported_accounts, s: r.skipped_accounts ?? 0 });
}
