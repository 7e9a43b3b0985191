// The fallback line extractor (core-upstream §7.15): stateless per line, for rounds that do not start with a
// snapshot (legacy or unknown shapes). The caller carries `currentType` from line to line.
import { classifyFailure, classifyStreamError } from "../core/classify";

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
}

const REFUSAL = ["系统检测到", "敏感内容", "无法响应"];

function skipListed(path: string): boolean {
  return (
    /^response\/fragments\/-?\d+\/status$/.test(path) ||
    path === "response/search_status" ||
    ["quasi_status", "elapsed_secs", "pending_fragment", "conversation_mode"].some((w) => path.includes(w))
  );
}

const lastSeg = (path: string) => path.slice(path.lastIndexOf("/") + 1);

function hasFilter(v: unknown, depth = 0): boolean {
  if (!v || typeof v !== "object" || depth > 16) return false;
  if (Array.isArray(v)) return v.some((x) => hasFilter(x, depth + 1));
  const o = v as Record<string, unknown>;
  if (typeof o.code === "string" && o.code.toLowerCase() === "content_filter") return true;
  if (typeof o.p === "string" && o.p.includes("status") && typeof o.v === "string" && o.v.toLowerCase() === "content_filter") return true;
  return Object.values(o).some((x) => hasFilter(x, depth + 1));
}

/** Extracts one raw body line (`data: …`, a bare JSON envelope, or anything else). */
export function extractRawLine(line: string, thinkingEnabled: boolean, currentType: LineType): LineResult {
  const none = (): LineResult => ({ parsed: false, stop: false, contentFilter: false, error: "", parts: [], nextType: currentType });
  const t = line.trim();
  if (!t) return none();
  if (t.startsWith("data:")) {
    const rest = t.slice(5).trim();
    if (rest === "[DONE]") return { ...none(), parsed: true, stop: true };
    let obj: unknown;
    try {
      obj = JSON.parse(rest);
    } catch {
      return none();
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return none();
    return extractLine(obj as Record<string, unknown>, thinkingEnabled, currentType);
  }
  if (t.startsWith("{")) {
    let obj: Record<string, any>;
    try {
      obj = JSON.parse(t);
    } catch {
      return none();
    }
    if (!obj || typeof obj !== "object") return none();
    const data = obj.data && typeof obj.data === "object" ? obj.data : null;
    const failure =
      (typeof obj.code === "number" && obj.code !== 0) ||
      (data && typeof data.biz_code === "number" && data.biz_code !== 0) ||
      (!data && typeof obj.msg === "string" && obj.msg !== "");
    if (!failure) return none();
    const error = data?.biz_msg || data?.biz_data?.msg || obj.msg || "";
    const kind = classifyFailure(200, obj);
    return { ...none(), parsed: true, stop: true, error, errorCode: kind === "upstream_rate_limited" ? "upstream_error" : kind };
  }
  return none();
}

export function extractLine(obj: Record<string, unknown>, thinkingEnabled: boolean, currentType: LineType): LineResult {
  let cur = currentType;
  const result: LineResult = { parsed: true, stop: false, contentFilter: false, error: "", parts: [], nextType: cur };
  const rmid = obj.response_message_id;
  const vresp = (obj.v as Record<string, any>)?.response ?? (obj.message as Record<string, any>)?.response;
  if (typeof rmid === "number" && rmid > 0) result.responseMessageId = rmid;
  else if (vresp && typeof vresp.message_id === "number") result.responseMessageId = vresp.message_id;

  if ("error" in obj) {
    const e = obj.error;
    return { ...result, stop: true, error: typeof e === "string" && e ? e : JSON.stringify(e), errorCode: "upstream_error" };
  }
  if (obj.type === "error") {
    const content = typeof obj.content === "string" && obj.content ? obj.content : "upstream error";
    return { ...result, stop: true, error: content, errorCode: classifyStreamError(obj) };
  }
  if (hasFilter(obj)) return { ...result, stop: true, contentFilter: true };
  if (!("v" in obj)) return result;

  const path = typeof obj.p === "string" ? obj.p : "";
  if (skipListed(path)) return result;
  const v = obj.v;
  if (path === "response/status" || path === "status" || ("p" in obj && path === "")) {
    if (v === "FINISHED") result.stop = true;
    if (path !== "" || "p" in obj) return result;
  }

  const raw: LinePart[] = [];
  const typeOf = (p: string): LineType => {
    if (p === "response/content") {
      cur = "text";
      return "text";
    }
    if (lastSeg(p) === "thinking_content") return thinkingEnabled && cur === "text" ? "text" : "thinking";
    return cur;
  };
  const textBearing = (p: string) => p === "" || p === "response/fragments" || lastSeg(p) === "content" || lastSeg(p) === "thinking_content";

  const fragmentList = (list: unknown[]) => {
    for (const f of list) {
      if (!f || typeof f !== "object") continue;
      const fr = f as Record<string, unknown>;
      const type = typeof fr.type === "string" ? fr.type.toUpperCase() : "";
      if (["TIP", "TEMPLATE_RESPONSE", "TOOL_SEARCH", "TOOL_OPEN"].includes(type)) continue;
      const channel: LineType = type === "THINK" || type === "THINKING" ? "thinking" : "text";
      if (type === "THINK" || type === "THINKING" || type === "RESPONSE") cur = channel;
      if (typeof fr.content === "string") raw.push({ text: fr.content, type: channel });
    }
  };

  const walk = (outer: string, arr: unknown[]) => {
    for (const item of arr) {
      if (!item || typeof item !== "object" || !("v" in (item as object))) continue;
      const it = item as Record<string, unknown>;
      const ip = typeof it.p === "string" ? it.p : "";
      const resolved = outer && ip ? `${outer}/${ip}` : outer || ip;
      if (skipListed(resolved)) continue;
      if (resolved === "response/status" || resolved === "status") {
        if (it.v === "FINISHED") result.stop = true;
        continue;
      }
      if (resolved.endsWith("fragments") && it.o === "APPEND" && Array.isArray(it.v)) fragmentList(it.v);
      else if (typeof it.v === "string" && (lastSeg(resolved) === "content" || lastSeg(resolved) === "thinking_content"))
        raw.push({ text: it.v, type: typeOf(resolved) });
      else if (Array.isArray(it.v)) walk(resolved, it.v);
    }
  };

  if (typeof v === "string") {
    if (textBearing(path)) raw.push({ text: v, type: typeOf(path) });
  } else if (Array.isArray(v)) {
    if (path === "response/fragments" && obj.o === "APPEND") fragmentList(v);
    else walk(path, v);
  } else if (v && typeof v === "object") {
    const o = v as Record<string, any>;
    const frags = Array.isArray(o.response?.fragments) ? o.response.fragments : Array.isArray(o.fragments) ? o.fragments : null;
    if (frags) fragmentList(frags);
    else if (textBearing(path)) {
      const s = typeof o.text === "string" ? o.text : typeof o.content === "string" ? o.content : null;
      if (s !== null) raw.push({ text: s, type: typeOf(path) });
    }
  }

  // Post-processing (step 12).
  const parts: LinePart[] = [];
  for (const part of raw) {
    if (part.type === "thinking" && part.text.includes("</think>")) {
      const at = part.text.indexOf("</think>");
      parts.push({ text: part.text.slice(0, at), type: "thinking" });
      parts.push({ text: part.text.slice(at + 8), type: "text" });
      cur = "text";
    } else parts.push(part);
  }
  const out: LinePart[] = [];
  for (let p of parts) {
    if (p.type === "text") p = { ...p, text: p.text.replaceAll("<think>", "").replaceAll("</think>", "") };
    if (p.text === "") continue;
    if (p.type === "thinking" && !thinkingEnabled) continue;
    const leak = p.text.indexOf("CONTENT_FILTER");
    if (leak >= 0) {
      let cut = p.text.slice(0, leak).replace(/[ \t\r]+$/, "");
      if (!/\S/.test(cut) && !cut.includes("\n")) cut = "";
      if (!cut) continue;
      p = { ...p, text: cut };
    }
    if (p.type === "text") {
      const compact = p.text.replace(/\s+/g, "");
      if (REFUSAL.every((w) => compact.includes(w))) return { ...result, stop: true, contentFilter: true, parts: [], nextType: cur };
    }
    out.push(p);
  }
  result.parts = out;
  result.nextType = cur;
  return result;
}
