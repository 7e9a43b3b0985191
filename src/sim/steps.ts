// Step vocabulary of scenario scripts (core-upstream §12.5, §12.6): which key names a step, how text is cut
// into tokens, and the search result object core sends (§7.6), with defaults for what a script leaves out.
import type { Chunk, Step } from "./types";

export const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : v === undefined || v === null || v === true ? d : String(v));
export const obj = (v: unknown): Record<string, any> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, any>) : {});
export const num = (v: unknown, d: number): number => (typeof v === "number" && Number.isFinite(v) ? v : d);

export const STEP_KINDS = [
  "ready", "update_session", "snapshot", "think", "think_end", "answer", "search", "open", "cite", "tip", "usage",
  "status", "content_filter", "finish", "title", "close", "keepalive", "sleep", "message", "event", "raw",
  "type_error", "error", "code_content_filter", "eof",
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export function stepKind(step: Step): StepKind | null {
  for (const k of Object.keys(step)) if ((STEP_KINDS as readonly string[]).includes(k)) return k as StepKind;
  return null;
}

/** Splits a text into tokens; never splits a surrogate pair. */
export function splitText(text: string, chunk: Chunk): string[] {
  if (Array.isArray(chunk)) return chunk;
  if (text === "") return [];
  if (chunk === "whole") return [text];
  if (chunk === "char") return Array.from(text);
  if (typeof chunk === "number" && chunk > 0) {
    const out: string[] = [];
    for (let at = 0; at < text.length; ) {
      let end = Math.min(text.length, at + chunk);
      const c = text.charCodeAt(end - 1);
      if (end < text.length && c >= 0xd800 && c <= 0xdbff) end++;
      out.push(text.slice(at, end));
      at = end;
    }
    return out;
  }
  // "word": words and whitespace runs as separate tokens.
  return text.match(/\s+|\S+/g) ?? [];
}


export function searchResult(r: unknown, queryIndex: number, j: number): Record<string, unknown> {
  const o = obj(r);
  const url = str(o.url, `https://search${queryIndex}.example/${j}`);
  let host = "example";
  try {
    host = new URL(url).host;
  } catch {}
  return {
    url,
    title: str(o.title, host),
    snippet: str(o.snippet, `${str(o.title, host)} ...`),
    cite_index: o.cite_index ?? null,
    published_at: o.published_at ?? null,
    site_icon: str(o.site_icon, `https://cdn.sim.invalid/site-icons/${host}`),
    site_name: str(o.site_name, host),
    query_indexes: Array.isArray(o.query_indexes) ? o.query_indexes : [0],
  };
}
