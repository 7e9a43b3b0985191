// Usage (issue 31): requests, tokens and errors over time from the request log, in hour or day buckets, by key,
// model or account, as stacked bars, a table and a CSV download.
import { useEffect, useState } from "preact/hooks";
import "../ops.css";
import { api, raw } from "../api";
import { Alert, errText, TableHead } from "../components";
import { BarChart, toSeries } from "../chart";
import { t } from "../i18n";
import type { SeriesPage, SeriesRow } from "../../../metering/request-stats";

const METRICS: [string, (r: SeriesRow) => number][] = [
  ["Requests", (r) => r.requests],
  ["Tokens", (r) => r.input_tokens + r.output_tokens],
  ["Errors", (r) => r.errors],
];

export function Usage() {
  const [bucket, setBucket] = useState<"hour" | "day">("hour");
  const [group, setGroup] = useState<"key" | "model" | "account">("key");
  const [rows, setRows] = useState<SeriesRow[] | null>(null);
  const [err, setErr] = useState("");
  const query = () => `/admin/usage/series?bucket=${bucket}&group_by=${group}&from=${Date.now() - (bucket === "hour" ? 86_400_000 : 30 * 86_400_000)}`;
  useEffect(() => {
    api<SeriesPage>(query()).then(
      (r) => {
        setRows(r.rows);
        setErr("");
      },
      (e) => setErr(errText(e)),
    );
  }, [bucket, group]);
  const size = bucket === "hour" ? 3_600_000 : 86_400_000;
  const span = bucket === "hour" ? 24 : 30;
  const last = Math.floor(Date.now() / size) * size;
  const allBuckets = Array.from({ length: span }, (_, i) => new Date(last - (span - 1 - i) * size).toISOString());
  const fmt = (b: string) => (bucket === "hour" ? b.slice(11, 16) : b.slice(5, 10));
  const download = async () => {
    const res = await raw(`${query()}&format=csv`);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = `usage-${bucket}-${group}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div class="stack">
      <div class="toolbar">
        <label>
          {t("Bucket")}{" "}
          <select name="bucket" value={bucket} onChange={(e) => setBucket(e.currentTarget.value as "hour" | "day")}>
            <option value="hour">{t("Hour (last 24 hours)")}</option>
            <option value="day">{t("Day (last 30 days)")}</option>
          </select>
        </label>
        <label>
          {t("Group by")}{" "}
          <select name="group" value={group} onChange={(e) => setGroup(e.currentTarget.value as "key" | "model" | "account")}>
            <option value="key">{t("Key")}</option>
            <option value="model">{t("Model")}</option>
            <option value="account">{t("Account")}</option>
          </select>
        </label>
        <button type="button" onClick={() => void download()} data-testid="usage-csv">
          {t("Download CSV")}
        </button>
      </div>
      <Alert>{err}</Alert>
      {rows && rows.length === 0 ? <p class="muted">{t("No traffic in this period.")}</p> : null}
      {rows && rows.length > 0
        ? METRICS.map(([label, value]) => (
            <section class="card" key={label}>
              <h2>{t(label)}</h2>
              <BarChart series={toSeries(rows, value, 6, allBuckets)} label={t(label)} format={fmt} testid={`chart-${label.toLowerCase()}`} />
            </section>
          ))
        : null}
      {rows && rows.length > 0 ? (
        <div class="table-wrap">
          <table class="cards-on-phone" data-testid="usage-rows">
            <TableHead cols={[t("Time"), t("Group"), t("Requests"), t("Errors"), t("Input tokens"), t("Output tokens")]} />
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.bucket}-${r.group}`}>
                  <td data-label={t("Time")}>{fmt(r.bucket)}</td>
                  <td data-label={t("Group")}>{r.group || t("(none)")}</td>
                  <td data-label={t("Requests")}>{r.requests}</td>
                  <td data-label={t("Errors")}>{r.errors}</td>
                  <td data-label={t("Input tokens")}>{r.input_tokens}</td>
                  <td data-label={t("Output tokens")}>{r.output_tokens}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
