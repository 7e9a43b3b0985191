// Proxies: list, add/edit, test with latency, delete, batch import of URL or host:port:user:pass lines.
import { useEffect, useState } from "preact/hooks";
import { api, enc } from "../api";
import { Alert, Badge, Field, errText, TableHead, DeleteButton, useLoader } from "../components";
import { ImportButton, ModalForm, useSubmit } from "../form";
import { t } from "../i18n";
import { parseProxyLines } from "../import-parse";
import type { MaskedProxy } from "../../../config/mask";
import type { ProxyTestResult } from "../../../surfaces/admin/proxy-test";
import type { ProxiesView } from "../../../surfaces/admin/answer-schema";

/** The API's own masked proxy shape (type-only: nothing of the server enters the bundle). */
type ProxyRow = MaskedProxy;

type TestResult = ProxyTestResult;

export function Proxies() {
  const [rows, setRows] = useState<ProxyRow[] | null>(null);
  const [results, setResults] = useState<Record<string, TestResult | "running">>({});
  const [editing, setEditing] = useState<ProxyRow | "new" | null>(null);
  const [msg, setMsg] = useState("");
  const [err, setErr] = useState("");

  const load = useLoader(async () => {
    setRows((await api<ProxiesView>("/admin/proxies")).items);
  }, setErr);

  const test = async (id: string) => {
    setResults((r) => ({ ...r, [id]: "running" }));
    try {
      const r = await api<TestResult>("/admin/proxies/test", { method: "POST", body: { proxy_id: id } });
      setResults((x) => ({ ...x, [id]: r }));
    } catch (e) {
      setResults((x) => ({ ...x, [id]: { success: false, response_time: 0, status_code: 0, message: errText(e) } }));
    }
  };

  return (
    <div class="stack">
      <div class="toolbar">
        <button type="button" class="primary" onClick={() => setEditing("new")}>
          {t("Add proxy")}
        </button>
        <ImportButton title={t("Batch import proxies")} name="proxies" label={t("One proxy per line")} hint={t("scheme://user:pass@host:port or host:port:user:pass")} run={importProxies} onDone={(m) => { setMsg(m); void load(); }} />
      </div>
      <Alert kind="ok">{msg}</Alert>
      <Alert>{err}</Alert>
      <div class="table-wrap">
        <table class="cards-on-phone">
          <TableHead cols={[t("Name"), t("Address"), t("Accounts"), t("Test"), t("Actions")]} />
          <tbody>
            {rows?.map((p) => {
              const r = results[p.id];
              return (
                <tr key={p.id} data-proxy={p.id}>
                  <td data-label={t("Name")}>{p.name}</td>
                  <td data-label={t("Address")}>
                    <code>
                      {p.type}://{p.username ? `${p.username}@` : ""}
                      {p.host}:{p.port}
                    </code>
                  </td>
                  <td data-label={t("Accounts")}>{p.account_count}</td>
                  <td data-label={t("Test")} data-testid="proxy-result">
                    {r === "running" ? (
                      <span class="muted">{t("Testing…")}</span>
                    ) : r ? (
                      <>
                        <Badge kind={r.success ? "ok" : "bad"}>{r.success ? t("{ms} ms", { ms: r.response_time }) : t("failed")}</Badge> <span class="muted small">{r.message}</span>
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td data-label={t("Actions")} class="actions">
                    <button type="button" onClick={() => void test(p.id)} disabled={r === "running"}>
                      {t("Test")}
                    </button>
                    <button type="button" onClick={() => setEditing(p)}>
                      {t("Edit")}
                    </button>
                    <DeleteButton question={t("Delete proxy {p}? Accounts using it will connect directly.", { p: p.name })} path={`/admin/proxies/${enc(p.id)}`} onError={setErr} onDone={load} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {rows && rows.length === 0 ? <p class="muted empty">{t("No proxies. Accounts connect directly.")}</p> : null}
      </div>
      {editing ? <ProxyForm row={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); void load(); }} /> : null}
    </div>
  );
}

function ProxyForm(props: { row: ProxyRow | null; onClose: () => void; onSaved: () => void }) {
  const r = props.row;
  const [name, setName] = useState(r?.name ?? "");
  const [type, setType] = useState(r?.type ?? "http");
  const [host, setHost] = useState(r?.host ?? "");
  const [port, setPort] = useState(r ? String(r.port) : "");
  const [username, setUsername] = useState(r?.username ?? "");
  const [password, setPassword] = useState("");
  const form = useSubmit(async () => {
    const body = { name, type, host, port, username, password };
    if (r) await api(`/admin/proxies/${enc(r.id)}`, { method: "PUT", body });
    else await api("/admin/proxies", { method: "POST", body });
    props.onSaved();
  });
  return (
    <ModalForm title={r ? t("Edit proxy") : t("Add proxy")} submit={form} onClose={props.onClose}>
      <Field label={t("Name")} hint={t("Defaults to host:port.")}>
        <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      <Field label={t("Type")}>
        <select name="type" value={type} onChange={(e) => setType(e.currentTarget.value)}>
          <option value="http">http</option>
          <option value="socks5">socks5</option>
          <option value="socks5h">socks5h</option>
        </select>
      </Field>
      <Field label={t("Host")}>
        <input name="host" required value={host} onInput={(e) => setHost(e.currentTarget.value)} />
      </Field>
      <Field label={t("Port")}>
        <input name="port" required inputMode="numeric" value={port} onInput={(e) => setPort(e.currentTarget.value)} />
      </Field>
      <Field label={t("Username")}>
        <input name="username" autoComplete="off" value={username} onInput={(e) => setUsername(e.currentTarget.value)} />
      </Field>
      <Field label={t("Password")} hint={r?.has_password ? t("Leave empty to keep the stored password.") : undefined}>
        <input name="password" type="password" autoComplete="new-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </Field>
    </ModalForm>
  );
}

async function importProxies(text: string): Promise<string> {
  const proxies = parseProxyLines(text);
  let added = 0;
  const failures: string[] = [];
  for (const p of proxies) {
    try {
      await api("/admin/proxies", { method: "POST", body: p });
      added++;
    } catch (e) {
      failures.push(`${p.host}:${p.port}: ${errText(e)}`);
    }
  }
  // Every line is tried; the ones refused are listed together, each with the API's reason.
  if (failures.length) throw new Error(failures.join("\n"));
  return t("Imported {n} proxies.", { n: added });
}
