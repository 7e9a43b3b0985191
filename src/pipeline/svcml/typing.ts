// Typing of parameter values (svcml-and-prompts.md §1.7): JSON literals, structured XML fragments, loose
// JSON lists, the keep-as-text names, unwrapping of `item` wrappers, and CDATA values (§1.6).
import { CDATA_OPENER as CDATA_OPEN, KEEP_AS_TEXT_NAMES } from "./constants";

export function decodeEntities(s: string): string {
  if (!s.includes("&")) return s;
  return s.replace(/&(amp|lt|gt|quot|apos|nbsp|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    switch (e) {
      case "amp":
        return "&";
      case "lt":
        return "<";
      case "gt":
        return ">";
      case "quot":
        return '"';
      case "apos":
        return "'";
      case "nbsp":
        return "\u00a0";
    }
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    try {
      return String.fromCodePoint(code);
    } catch {
      return `&${e};`;
    }
  });
}

export function startsWithCdata(s: string): boolean {
  if (s.length < CDATA_OPEN.length) return false;
  for (let k = 0; k < CDATA_OPEN.length; k++) {
    const c = s.charCodeAt(k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== CDATA_OPEN.charCodeAt(k)) return false;
  }
  return true;
}

/** The value C of a CDATA body B (§1.6): up to the final ]]> if B ends with one; adjacent sections rejoined. */
export function cdataValue(body: string): string {
  const b = body.trim();
  let c = b.slice(9);
  if (c.endsWith("]]>")) c = c.slice(0, -3);
  return c.includes("]]>") ? c.replace(/\]\]><!\[CDATA\[/gi, "") : c;
}

/** The first character of every JSON text this typing accepts as a literal. */
const LITERAL_START = /^[{["\-0-9tfn]/;

function isJsonLiteral(t: string): { ok: boolean; value?: unknown } {
  if (!t || !LITERAL_START.test(t)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch {
    return { ok: false };
  }
}

function unwrapItem(v: unknown): unknown {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === "item") {
      const inner = (v as Record<string, unknown>).item;
      return Array.isArray(inner) ? inner : [inner];
    }
  }
  return v;
}

function unwrapTop(v: unknown, name: string): unknown {
  v = unwrapItem(v);
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === name && Array.isArray((v as Record<string, unknown>)[name])) return (v as Record<string, unknown>)[name];
  }
  return v;
}

interface XmlNode {
  name: string;
  children: XmlNode[];
  text: string;
}

/** Parses a sequence of XML elements; null when the text is not only elements (non-blank text outside). */
function parseXmlSeq(s: string): XmlNode[] | null {
  let i = 0;
  const parseNodes = (closing: string | null): XmlNode[] | null => {
    const nodes: XmlNode[] = [];
    let text = "";
    while (i < s.length) {
      if (s.startsWith("<![CDATA[", i)) {
        const end = s.indexOf("]]>", i + 9);
        if (end < 0) return null;
        text += s.slice(i + 9, end);
        i = end + 3;
        continue;
      }
      if (s[i] === "<") {
        if (s[i + 1] === "/") {
          const end = s.indexOf(">", i);
          if (end < 0) return null;
          const name = s.slice(i + 2, end).trim();
          if (name !== closing) return null;
          i = end + 1;
          (nodes as XmlNode[] & { text?: string }).text = text;
          return nodes;
        }
        const m = /^<([A-Za-z_][\w.\-]*)((?:\s+[^>]*?)?)(\/?)>/.exec(s.slice(i, i + 300));
        if (!m) return null;
        i += m[0].length;
        if (m[3] === "/") {
          nodes.push({ name: m[1]!, children: [], text: "" });
          continue;
        }
        const kids = parseNodes(m[1]!);
        if (!kids) return null;
        nodes.push({ name: m[1]!, children: kids, text: (kids as XmlNode[] & { text?: string }).text ?? "" });
        continue;
      }
      text += s[i];
      i++;
    }
    if (closing !== null) return null;
    (nodes as XmlNode[] & { text?: string }).text = text;
    return nodes;
  };
  const nodes = parseNodes(null);
  if (!nodes) return null;
  if (((nodes as XmlNode[] & { text?: string }).text ?? "").trim() !== "") return null;
  return nodes;
}

function mapNodes(nodes: XmlNode[], mixedText: string): unknown {
  const obj: Record<string, unknown> = {};
  for (const n of nodes) {
    const v = mapNode(n);
    if (n.name in obj) {
      const cur = obj[n.name];
      obj[n.name] = Array.isArray(cur) && (cur as unknown[] & { __rep?: boolean }).__rep ? [...(cur as unknown[]), v] : [cur, v];
      (obj[n.name] as unknown[] & { __rep?: boolean }).__rep = true;
    } else obj[n.name] = v;
  }
  for (const k of Object.keys(obj)) if (Array.isArray(obj[k])) delete (obj[k] as unknown[] & { __rep?: boolean }).__rep;
  if (mixedText.trim()) obj._text = mixedText.trim();
  return unwrapItem(obj);
}

function mapNode(n: XmlNode): unknown {
  if (n.children.length === 0) {
    const t = n.text.trim();
    const lit = isJsonLiteral(t);
    return lit.ok ? unwrapItem(lit.value) : t;
  }
  return mapNodes(n.children, n.text);
}

function structuredXml(s: string): unknown | undefined {
  if (!s.includes("<") || !s.includes(">")) return undefined;
  const nodes = parseXmlSeq(s.trim());
  if (!nodes || nodes.length === 0) return undefined;
  const explicit = nodes.length >= 2 || nodes[0]!.name === "item" || nodes[0]!.children.length > 0;
  if (!explicit) return undefined;
  return mapNodes(nodes, "");
}

function repairJson(s: string): string {
  return s.replace(/\\(?!["\\/bfnrtu])/g, "\\\\").replace(/([{,]\s*)([A-Za-z_][\w]*)\s*:/g, '$1"$2":');
}

function parseLoose(s: string): unknown | undefined {
  for (const cand of [s, repairJson(s)]) {
    try {
      return JSON.parse(cand);
    } catch {}
  }
  return undefined;
}

function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inStr = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === "\\") i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function looseList(s: string): unknown[] | undefined {
  const t = s.trim();
  if (!t) return undefined;
  const whole = parseLoose(t) ?? parseLoose(`[${t}]`);
  if (Array.isArray(whole) && (t.startsWith("[") || splitTopLevel(t).length >= 2)) return whole;
  const unwrapped = whole !== undefined ? unwrapItem(whole) : undefined;
  if (Array.isArray(unwrapped) && whole && typeof whole === "object" && !Array.isArray(whole)) return unwrapped;
  const segs = splitTopLevel(t);
  if (segs.length < 2) return undefined;
  const vals: unknown[] = [];
  for (const seg of segs) {
    const v = parseLoose(seg.trim());
    if (v !== undefined) {
      vals.push(v);
      continue;
    }
    const x = structuredXml(seg);
    if (x === undefined) return undefined;
    vals.push(x);
  }
  return vals;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The typed value of text t (trimmed) when no structured reading can apply, or NOT_SIMPLE. Most values are
 * a word, a path or a number: for them the XML, JSON and loose-list probes below would all fail (the XML
 * reading needs `<`, the loose list a `,`, JSON a literal start), and JSON.parse failing means a thrown
 * exception per probe. `&` is excluded because entity decoding could make a `<`.
 */
const NOT_SIMPLE = Symbol("not simple");
function simpleValue(t: string, asText: string): unknown {
  const n = t.length;
  if (n <= 32) {
    // One pass over a short value costs less than three native searches.
    for (let k = 0; k < n; k++) {
      const c = t.charCodeAt(k);
      if (c === 60 || c === 44 || c === 38) return NOT_SIMPLE; // < , &
    }
  } else if (t.includes("<") || t.includes(",") || t.includes("&")) return NOT_SIMPLE;
  const c = t.charCodeAt(0);
  if (c === 123 || c === 91 || c === 34) return NOT_SIMPLE; // { [ "
  if (c === 45 || (c >= 48 && c <= 57)) return isJsonInteger(t) || JSON_NUMBER.test(t) ? Number(t) : NOT_SIMPLE;
  if (t === "true") return true;
  if (t === "false") return false;
  if (t === "null") return null;
  return asText;
}

/** A JSON integer (-?(0|[1-9][0-9]*)), the usual number value, checked without the regular expression. */
function isJsonInteger(t: string): boolean {
  const first = t.charCodeAt(0) === 45 ? 1 : 0;
  const n = t.length;
  if (first >= n || (t.charCodeAt(first) === 48 && n > first + 1)) return false;
  for (let k = first; k < n; k++) {
    const d = t.charCodeAt(k);
    if (d < 48 || d > 57) return false;
  }
  return true;
}

/** Types a parameter body B (raw, as between the tags) for parameter `name` (§1.7). */
export function typeParameterValue(name: string, rawBody: string): unknown {
  return typeValue(name, rawBody, true);
}

/** What typeCdataValue returns when the value needs the full rules, which read the raw body. */
export const NEEDS_RAW_BODY = Symbol("needs the raw body");

/**
 * The typed value of a parameter whose body is one CDATA section holding `value` (the detector found its
 * bounds already): simple values directly, else NEEDS_RAW_BODY (the caller then types the raw body with
 * typeParameterValueByProbes). No callback: this runs for most parameters.
 */
export function typeCdataValue(name: string, value: string): unknown {
  const t = value.trim();
  const simple = simpleValue(t, value);
  if (simple !== NOT_SIMPLE) return simple;
  // Keep-as-text names (content, command, old_string…) only read as JSON literals: skip everything else.
  if (!LITERAL_START.test(t) && KEEP_AS_TEXT_NAMES.has(name.toLowerCase())) return value;
  return NEEDS_RAW_BODY;
}

/** The same without the shortcut for simple values (exported so tests can check they agree). */
export function typeParameterValueByProbes(name: string, rawBody: string): unknown {
  return typeValue(name, rawBody, false);
}

function typeValue(name: string, rawBody: string, shortcut: boolean): unknown {
  const b = rawBody.trim();
  if (b === "") return "";
  const cdata = startsWithCdata(b);
  const quick = cdata ? cdataValue(b) : b;
  if (shortcut) {
    const simple = simpleValue(cdata ? quick.trim() : quick, quick);
    if (simple !== NOT_SIMPLE) return simple;
  }
  const keep = KEEP_AS_TEXT_NAMES.has(name.toLowerCase());
  if (cdata) {
    const c = quick;
    const lit = isJsonLiteral(c.trim());
    if (lit.ok) return unwrapTop(lit.value, name);
    if (!keep) {
      const x = structuredXml(decodeEntities(c.replace(/<br\s*\/?>/gi, "\n")));
      if (x !== undefined) return unwrapTop(x, name);
      const l = looseList(c);
      if (l) return l;
    }
    return c;
  }
  const d = decodeEntities(b);
  if (!keep) {
    const x = structuredXml(d);
    if (x !== undefined) return unwrapTop(x, name);
  }
  const lit = isJsonLiteral(d);
  if (lit.ok) return unwrapTop(lit.value, name);
  if (!keep) {
    const l = looseList(d);
    if (l) return l;
  }
  return d.trim();
}

/** The all-empty filter (§1.5): null, blank strings, {} , [] and containers of only empty values. */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === "string") return v.trim() === "";
  if (Array.isArray(v)) return v.every(isEmptyValue);
  if (typeof v === "object") return Object.values(v as object).every(isEmptyValue);
  return false;
}

/**
 * A parameter body's source text (§1.11, string parameters): a CDATA body's value C exactly (§1.6: not trimmed, no
 * entity decoding, split sections rejoined), else the body with entities decoded once, trimmed. With `nullable`,
 * a plain body that reads exactly `null` is null. Nothing here parses or re-formats what the model wrote.
 */
export function sourceText(rawBody: string, nullable: boolean): string | null {
  const b = rawBody.trim();
  if (b === "") return "";
  if (startsWithCdata(b)) return cdataValue(b);
  const d = decodeEntities(b).trim();
  return nullable && d === "null" ? null : d;
}
