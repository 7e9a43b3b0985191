// The doctor's table for a terminal: check, result, what to do; one line per check, columns padded, a summary.
import type { DoctorReport } from "./checks";

const MARK = { ok: "ok  ", warn: "WARN", fail: "FAIL", skip: "--  " } as const;

export function renderTable(report: DoctorReport): string {
  const rows = report.checks.map((c) => [`${MARK[c.status]} ${c.check}`, c.result, c.action]);
  const head = ["CHECK", "RESULT", "WHAT TO DO"];
  const w0 = Math.max(head[0]!.length, ...rows.map((r) => r[0]!.length));
  const w1 = Math.min(70, Math.max(head[1]!.length, ...rows.map((r) => r[1]!.length)));
  const line = (r: string[]) => `${r[0]!.padEnd(w0)}  ${r[1]!.padEnd(w1)}  ${r[2]}`.trimEnd();
  const fails = report.checks.filter((c) => c.status === "fail").length;
  const warns = report.checks.filter((c) => c.status === "warn").length;
  const summary = fails ? `${fails} check(s) failed, ${warns} warning(s).` : `All checks passed${warns ? `, ${warns} warning(s)` : ""}.`;
  return [line(head), ...rows.map(line), "", summary, ""].join("\n");
}
