// English is the source text and the key; Chinese comes from zh.ts. `{name}` placeholders are filled from vars.
import type { Lang } from "./prefs";
import { ZH } from "./zh";

let current: Lang = "en";

export function setLang(l: Lang): void {
  current = l;
}

export function t(text: string, vars: Record<string, string | number> = {}): string {
  const s = current === "zh" ? (ZH[text] ?? text) : text;
  return s.replace(/\{(\w+)\}/g, (m: string, k: string) => (k in vars ? String(vars[k]) : m));
}

export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toLocaleString(current === "zh" ? "zh-CN" : "en-GB");
}

export function fmtDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return t("{d}d {h}h", { d, h });
  if (h) return t("{h}h {m}m", { h, m });
  if (m) return t("{m}m {s}s", { m, s: s % 60 });
  return t("{s}s", { s });
}
