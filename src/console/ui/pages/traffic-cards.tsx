// The overview's traffic (issue 31): the last hour and the last 24 hours from the request log — requests per
// minute, error rate, time to first token and queue wait (p50 / p95), tokens — and each account's requests in
// flight under its masked label.
import "../ops.css";
import { Badge } from "../components";
import { t } from "../i18n";
import type { TrafficAnswer } from "../../../surfaces/admin/answer-schema-ops";

/** GET /admin/traffic as the server documents it (a type-only import: nothing of the server enters the bundle). */
export type Traffic = TrafficAnswer;
type Summary = NonNullable<Traffic["last_hour"]>;

const ms = (v: number | null) => (v === null ? "—" : `${v} ms`);
const STATE: Record<Traffic["accounts"][number]["state"], ["ok" | "info" | "warn" | "bad", string]> = {
  available: ["ok", "Available"],
  in_use: ["info", "In use"],
  cooling_down: ["warn", "Cooling down"],
  login_failed: ["bad", "Login failed"],
};

export function TrafficCards(props: { traffic: Traffic | null }) {
  const tr = props.traffic;
  if (tr && !tr.enabled) return <p class="muted">{t("The request log is off: no traffic figures.")}</p>;
  const windows: [string, Summary | null | undefined, string][] = [
    [t("Last hour"), tr?.last_hour, "hour"],
    [t("Last 24 hours"), tr?.last_day, "day"],
  ];
  return (
    <>
      {windows.map(([title, s, id]) => (
        <section class="card" key={id} data-testid={`traffic-${id}`}>
          <h2>{title}</h2>
          <dl class="meta">
            <dt>{t("Requests per minute")}</dt>
            <dd data-testid={`rpm-${id}`}>{s ? s.requests_per_minute : "…"}</dd>
            <dt>{t("Requests")}</dt>
            <dd data-testid={`requests-${id}`}>{s ? s.requests : "…"}</dd>
            <dt>{t("Error rate")}</dt>
            <dd data-testid={`errors-${id}`}>{s ? `${(s.error_rate * 100).toFixed(1)}% (${s.errors})` : "…"}</dd>
            <dt>{t("Time to first token p50 / p95")}</dt>
            <dd data-testid={`ttft-${id}`}>{s ? `${ms(s.ttft_ms.p50)} / ${ms(s.ttft_ms.p95)}` : "…"}</dd>
            <dt>{t("Queue wait p50 / p95")}</dt>
            <dd>{s ? `${ms(s.queue_ms.p50)} / ${ms(s.queue_ms.p95)}` : "…"}</dd>
          </dl>
        </section>
      ))}
      <section class="card">
        <h2>{t("Tokens today")}</h2>
        <p data-testid="tokens-today">{tr?.today ? t("{i} in, {o} out", { i: tr.today.input_tokens, o: tr.today.output_tokens }) : "…"}</p>
      </section>
      {tr && tr.accounts.length > 0 ? (
        <section class="card">
          <h2>{t("Accounts in flight")}</h2>
          <ul class="list" data-testid="account-inflight">
            {tr.accounts.map((a) => (
              <li key={a.label}>
                <code>{a.label}</code> <Badge kind={STATE[a.state][0]}>{t(STATE[a.state][1])}</Badge> {t("{n} in flight", { n: a.in_flight })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
