// The fallback line extractor (core-upstream §7.15): stateless per line, for rounds that do not start with a
// snapshot (legacy or unknown shapes) and for the collector. The caller carries `currentType` (`nextType` of
// the previous line) from line to line, starting at "thinking" when thinking is enabled, else "text".
import { classifyFailure, classifyStreamError } from "../core/classify";
import { cutLeak, hasFilterSignal, isRefusalSentence } from "./filter-text";
import { parseJsonObject } from "../util/json";

export type LineType = "thinking" | "text";

export interface LinePart {
  text: string;
  type: LineType;
}

export interface LineResult {
  parsed: boolean;
  stop: boolean;
  contentFilter: boolean;
  error: string;
  errorCode?: string;
  parts: LinePart[];
  nextType: LineType;
  responseMessageId?: number;
  /** A part was cut at a leaked CONTENT_FILTER marker (not a stop on its own; the stream stage decides). */
  leaked?: boolean;
}

export interface ExtractOptions {
  /**
   * Keep thinking parts although thinking is disabled (step 12.4 skipped). The stream stage uses this: core
   * may send reasoning anyway, and the pipeline needs it for tool-call detection while hiding it.
   */
  keepThinking?: boolean;
}

const SKIP_WORDS = ["quasi_status", "elapsed_secs", "pending_fragment", "conversation_mode"];
const FRAGMENT_STATUS = /^response\/fragments\/-?\d+\/status$/;
const NOT_TEXT_FRAGMENTS = new Set(["TIP", "TEMPLATE_RESPONSE", "TOOL_SEARCH", "TOOL_OPEN"]);

function skipListed(path: string): boolean {
  return path === "response/search_status" || FRAGMENT_STATUS.test(path) || SKIP_WORDS.some((w) => path.includes(w));
}

const lastSeg = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const isStatusPath = (path: string) => path === "response/status" || path === "status";

function positiveInt(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined;
}

function emptyResult(currentType: LineType): LineResult {
  return { parsed: false, stop: false, contentFilter: false, error: "", parts: [], nextType: currentType };
}

/** Steps 1–3 on one raw body line (`data: …`, a bare JSON envelope, or anything else, which is not parsed). */
export function extractRawLine(line: string, thinkingEnabled: boolean, currentType: LineType, opts: ExtractOptions = {}): LineResult {
  const t = line.trim();
  if (!t) return emptyResult(currentType);
  if (t.startsWith("data:")) {
    const rest = t.slice(5).trim();
    if (rest === "[DONE]") return { ...emptyResult(currentType), parsed: true, stop: true };
    const obj = parseJsonObject(rest);
    if (!obj) return emptyResult(currentType);
    return extractPayload(obj, thinkingEnabled, currentType, opts);
  }
  if (t.charCodeAt(0) === 123 /* { */) {
    const obj = parseJsonObject(t);
    return obj ? extractEnvelope(obj, currentType) : emptyResult(currentType);
  }
  return emptyResult(currentType);
}

/** A bare JSON line: a failure envelope stops the stream; anything else is not parsed. */
export function extractEnvelope(obj: Record<string, unknown>, currentType: LineType): LineResult {
  const data = obj.data && typeof obj.data === "object" && !Array.isArray(obj.data) ? (obj.data as Record<string, unknown>) : null;
  const failure =
    (typeof obj.code === "number" && obj.code !== 0) ||
    (data !== null && typeof data.biz_code === "number" && data.biz_code !== 0) ||
    (data === null && typeof obj.msg === "string" && obj.msg !== "");
  if (!failure) return emptyResult(currentType);
  const bizData = data?.biz_data && typeof data.biz_data === "object" ? (data.biz_data as Record<string, unknown>) : null;
  const pick = (v: unknown) => (typeof v === "string" && v ? v : "");
  const error = pick(data?.biz_msg) || pick(bizData?.msg) || pick(obj.msg);
  const kind = classifyFailure(200, obj);
  return { ...emptyResult(currentType), parsed: true, stop: true, error, errorCode: kind === "upstream_rate_limited" ? "upstream_error" : kind };
}

/**
 * The extractor of §7.15: a raw line (string), or an already parsed `data:` payload (object, steps 4–13).
 */
export function extractLine(line: string | Record<string, unknown>, thinkingEnabled: boolean, currentType: LineType, opts: ExtractOptions = {}): LineResult {
  return typeof line === "string" ? extractRawLine(line, thinkingEnabled, currentType, opts) : extractPayload(line, thinkingEnabled, currentType, opts);
}


/** Steps 4–13 on one parsed `data:` payload. */
export function extractPayload(obj: Record<string, unknown>, thinkingEnabled: boolean, currentType: LineType, opts: ExtractOptions = {}): LineResult {
  let cur = currentType;
  const result: LineResult = { parsed: true, stop: false, contentFilter: false, error: "", parts: [], nextType: cur };
  const id = positiveInt(obj.response_message_id) ?? messageIdOf(obj.v) ?? messageIdOf(obj.message);
  if (id !== undefined) result.responseMessageId = id;

  // Steps 5–8: errors, filter verdicts, payloads without a value.
  if ("error" in obj) {
    const e = obj.error;
    return { ...result, stop: true, error: typeof e === "string" && e ? e : JSON.stringify(e) ?? String(e), errorCode: "upstream_error" };
  }
  if (obj.type === "error") {
    const content = typeof obj.content === "string" && obj.content ? obj.content : "upstream error";
    return { ...result, stop: true, error: content, errorCode: classifyStreamError(obj) };
  }
  if (hasFilterSignal(obj)) return { ...result, stop: true, contentFilter: true };
  if (!("v" in obj)) return result;

  // Steps 9–10: skip list and status paths. An absent `p` is a pathless token; an explicit "" is not.
  const path = typeof obj.p === "string" ? obj.p : "";
  if (skipListed(path)) return result;
  const v = obj.v;
  if (isStatusPath(path) || (obj.p === "" && v === "FINISHED")) {
    if (v === "FINISHED") result.stop = true;
    return result;
  }

  // Step 11: raw parts.
  const raw: LinePart[] = [];
  const typeOf = (p: string): LineType => {
    if (p === "response/content") return (cur = "text");
    if (lastSeg(p) === "thinking_content") return thinkingEnabled && cur === "text" ? "text" : "thinking";
    return cur;
  };
  const textBearing = (p: string) => p === "" || p === "response/fragments" || lastSeg(p) === "content" || lastSeg(p) === "thinking_content";

  const fragmentList = (list: unknown[]) => {
    for (const f of list) {
      if (!f || typeof f !== "object") continue;
      const fr = f as Record<string, unknown>;
      const type = typeof fr.type === "string" ? fr.type.toUpperCase() : "";
      if (NOT_TEXT_FRAGMENTS.has(type)) continue;
      const channel: LineType = type === "THINK" || type === "THINKING" ? "thinking" : "text";
      if (type === "THINK" || type === "THINKING" || type === "RESPONSE") cur = channel;
      if (typeof fr.content === "string") raw.push({ text: fr.content, type: channel });
    }
  };

  const walk = (outer: string, arr: unknown[], depth: number) => {
    if (depth > 32) return;
    for (const item of arr) {
      if (!item || typeof item !== "object" || Array.isArray(item) || !("v" in item)) continue;
      const it = item as Record<string, unknown>;
      const ip = typeof it.p === "string" ? it.p : "";
      const resolved = outer && ip ? `${outer}/${ip}` : outer || ip;
      if (skipListed(resolved)) continue;
      if (isStatusPath(resolved)) {
        if (it.v === "FINISHED") result.stop = true;
        continue;
      }
      const iv = it.v;
      if (resolved.endsWith("fragments") && it.o === "APPEND" && Array.isArray(iv)) fragmentList(iv);
      else if (typeof iv === "string" && (lastSeg(resolved) === "content" || lastSeg(resolved) === "thinking_content")) raw.push({ text: iv, type: typeOf(resolved) });
      else if (Array.isArray(iv)) walk(resolved, iv, depth + 1);
    }
  };

  if (typeof v === "string") {
    if (textBearing(path)) raw.push({ text: v, type: typeOf(path) });
  } else if (Array.isArray(v)) {
    if (path === "response/fragments" && obj.o === "APPEND") fragmentList(v);
    else walk(path, v, 0);
  } else if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const resp = o.response && typeof o.response === "object" ? (o.response as Record<string, unknown>) : null;
    const frags = resp && Array.isArray(resp.fragments) ? resp.fragments : Array.isArray(o.fragments) ? o.fragments : null;
    if (frags) fragmentList(frags);
    else if (textBearing(path)) {
      const s = typeof o.text === "string" ? o.text : typeof o.content === "string" ? o.content : null;
      if (s !== null) raw.push({ text: s, type: typeOf(path) });
    }
  }

  // Step 12: post-processing, in order.
  const split: LinePart[] = [];
  for (const part of raw) {
    const at = part.type === "thinking" ? part.text.indexOf("</think>") : -1;
    if (at >= 0) {
      split.push({ text: part.text.slice(0, at), type: "thinking" });
      split.push({ text: part.text.slice(at + 8), type: "text" });
      cur = "text";
    } else split.push(part);
  }
  const out: LinePart[] = [];
  for (let p of split) {
    if (p.type === "text" && p.text.includes("think>")) p = { ...p, text: p.text.replaceAll("<think>", "").replaceAll("</think>", "") };
    if (p.text === "") continue;
    if (p.type === "thinking" && !thinkingEnabled && !opts.keepThinking) continue;
    const cut = cutLeak(p.text);
    if (cut.leaked) {
      result.leaked = true;
      if (!cut.text) continue;
      p = { ...p, text: cut.text };
    }
    if (p.type === "text" && isRefusalSentence(p.text)) return { ...result, stop: true, contentFilter: true, parts: [], nextType: cur };
    out.push(p);
  }
  result.parts = out;
  result.nextType = cur;
  return result;
}

function messageIdOf(holder: unknown): number | undefined {
  if (!holder || typeof holder !== "object" || Array.isArray(holder)) return undefined;
  const r = (holder as Record<string, unknown>).response;
  return r && typeof r === "object" ? positiveInt((r as Record<string, unknown>).message_id) : undefined;
}
