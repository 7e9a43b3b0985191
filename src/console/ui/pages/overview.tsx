// Pool cards refreshed every 3 s, demo banner, version and update check, uptime, recent failed conversations.
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { Alert, Badge, ListCard, usePoll } from "../components";
import { fmtDuration, fmtTime, t } from "../i18n";
import { TrafficCards, type Traffic } from "./traffic-cards";
// The server's own types (type-only imports: nothing of the server enters the bundle).
import type { QueueStatus } from "../../../accounts/pool-api";
import type { VersionResult } from "../../../release/version-check";
import type { ConsoleStatus } from "../../../surfaces/admin/answer-schema-ops";

type Queue = QueueStatus;
type Status = ConsoleStatus;
type Version = VersionResult;

export function Overview() {
  const [queue, setQueue] = useState<Queue | null>(null);
  const [traffic, setTraffic] = useState<Traffic | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [version, setVersion] = useState<Version | null>(null);
  const err = usePoll(async () => {
    const [q, s, tr] = await Promise.all([api<Queue>("/admin/queue/status"), api<Status>("/admin/console/status"), api<Traffic>("/admin/traffic")]);
    setQueue(q);
    setStatus(s);
    setTraffic(tr);
  }, 3000);
  useEffect(() => {
    api<Version>("/admin/version").then(setVersion, () => {});
  }, []);

  // Issue 31: the four account states from one source, so they add up to the number of accounts.
  const pool = traffic?.pool;
  const cards: [string, number | undefined, string][] = [
    [t("Available"), pool?.available, "available"],
    [t("In use"), pool?.in_use, "in-use"],
    [t("Waiting"), queue?.waiting, "waiting"],
    [t("Accounts"), pool?.total, "total"],
    [t("Cooling down"), pool?.cooling_down, "cooldown"],
    [t("Login failed"), pool?.login_failed, "failed"],
  ];
  return (
    <div class="stack">
      {status?.demo ? (
        <div class="banner" role="status" data-testid="demo-banner">
          {t("Demo mode: core is the built-in simulator. Answers are generated locally, not by a real model.")}
        </div>
      ) : null}
      <Alert>{err}</Alert>
      <section class="cards" aria-label={t("Account pool")}>
        {cards.map(([label, value, id]) => (
          <div class="card stat" key={id} data-testid={`stat-${id}`}>
            <span class="stat-label">{label}</span>
            <span class="stat-value">{value ?? "…"}</span>
          </div>
        ))}
      </section>
      <TrafficCards traffic={traffic} />
      {queue ? (
        <p class="muted">
          {t("Limits: {a} per account, {g} in all, queue up to {q}.", { a: queue.max_inflight_per_account, g: queue.global_max_inflight, q: queue.max_queue_size })}
        </p>
      ) : null}
      <section class="card">
        <h2>{t("Gateway")}</h2>
        <dl class="meta">
          <dt>{t("Version")}</dt>
          <dd data-testid="version">
            {status?.version ?? "…"}{" "}
            {version?.has_update ? (
              <Badge kind="warn">
                {t("Update available: {v}", { v: version.latest_version ?? "" })}
                {version.release_url ? (
                  <>
                    {" "}
                    <a href={version.release_url} target="_blank" rel="noopener noreferrer">
                      {t("release notes")}
                    </a>
                  </>
                ) : null}
              </Badge>
            ) : version && !version.check_error ? (
              <Badge kind="ok">{t("Up to date")}</Badge>
            ) : null}
          </dd>
          {version?.check_error ? (
            <>
              <dt>{t("Update check")}</dt>
              <dd class="muted">{version.check_error}</dd>
            </>
          ) : null}
          <dt>{t("Uptime")}</dt>
          <dd data-testid="uptime">{status ? fmtDuration(status.uptime_seconds) : "…"}</dd>
        </dl>
      </section>
      <ListCard
        title={t("Recent errors")}
        empty={t("No failed conversations recorded.")}
        items={status?.recent_errors}
        item={(e) => (
          <li key={e.id}>
            <a href={`#/conversations/${e.id}`}>{fmtTime(e.created_at)}</a> <Badge kind="bad">{e.status_code || e.error_code}</Badge> <span>{e.surface}</span> · <span>{e.model}</span> ·{" "}
            <span class="muted">{e.message || e.error_code}</span>
          </li>
        )}
      />
    </div>
  );
}
