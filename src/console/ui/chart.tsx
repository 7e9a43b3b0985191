// A small stacked bar chart in SVG (issue 31): no chart library and nothing fetched from a CDN — the console's
// CSP allows only its own files. Bars per bucket, one colour per group (the largest groups; the rest summed).
import { t } from "./i18n";

const COLOURS = ["#2458d6", "#1c7a3e", "#c2410c", "#7c3aed", "#0e7490", "#b42318", "#8a5a00", "#64748b"];

export interface ChartSeries {
  buckets: string[];
  groups: string[];
  /** values[group][bucket] */
  values: number[][];
}

export function BarChart(props: { series: ChartSeries; label: string; testid?: string; format?: (b: string) => string }) {
  const { buckets, groups, values } = props.series;
  const W = 720;
  const H = 220;
  const PAD = { l: 48, r: 8, t: 8, b: 28 };
  const totals = buckets.map((_, bi) => groups.reduce((n, _g, gi) => n + (values[gi]?.[bi] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const bw = buckets.length ? (W - PAD.l - PAD.r) / buckets.length : 0;
  const y = (v: number) => H - PAD.b - (v / max) * (H - PAD.t - PAD.b);
  const every = Math.max(1, Math.ceil(buckets.length / 8));
  return (
    <figure class="stack">
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label} data-testid={props.testid}>
        <line class="axis" x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} />
        <text x={PAD.l - 4} y={PAD.t + 8} text-anchor="end">
          {max}
        </text>
        <text x={PAD.l - 4} y={H - PAD.b} text-anchor="end">
          0
        </text>
        {buckets.map((b, bi) => {
          let acc = 0;
          return (
            <g key={b} data-bucket={b}>
              {groups.map((g, gi) => {
                const v = values[gi]?.[bi] ?? 0;
                if (!v) return null;
                const top = y(acc + v);
                const h = y(acc) - top;
                acc += v;
                return (
                  <rect key={g} x={PAD.l + bi * bw + 1} y={top} width={Math.max(1, bw - 2)} height={h} fill={COLOURS[gi % COLOURS.length]}>
                    <title>{`${g || t("(none)")} · ${props.format ? props.format(b) : b}: ${v}`}</title>
                  </rect>
                );
              })}
              {bi % every === 0 ? (
                <text x={PAD.l + bi * bw + bw / 2} y={H - 10} text-anchor="middle">
                  {props.format ? props.format(b) : b}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {groups.map((g, gi) => (
          <span key={g}>
            <i style={{ background: COLOURS[gi % COLOURS.length] }} />
            {g || t("(none)")}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Rows of (bucket, group, value) into a chart's series: the `top` largest groups, the rest as "other". */
export function toSeries(rows: { bucket: string; group: string }[], value: (r: any) => number, top = 6, allBuckets: string[] = []): ChartSeries {
  // Every bucket of the period, empty ones included, so the axis is time and not just the busy hours.
  const buckets = [...new Set([...allBuckets, ...rows.map((r) => r.bucket)])].sort();
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.group, (sums.get(r.group) ?? 0) + value(r));
  const ranked = [...sums.entries()].sort((a, b) => b[1] - a[1]).map(([g]) => g);
  const kept = ranked.slice(0, top);
  const other = ranked.length > top;
  const groups = other ? [...kept, t("other")] : kept;
  const values = groups.map(() => buckets.map(() => 0));
  for (const r of rows) {
    const gi = kept.indexOf(r.group);
    const row = values[gi === -1 ? groups.length - 1 : gi]!;
    row[buckets.indexOf(r.bucket)]! += value(r);
  }
  return { buckets, groups, values };
}
