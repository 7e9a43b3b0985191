// A change to config.json written as edits to the operator's own text, not as a re-serialised file. The
// operator's layout, key order, number spellings (`1.0`), keys the gateway does not know and anything they
// edited since the gateway last wrote stay as they are; only the values this process changed are rewritten.
// A login token saved after a sign-in therefore touches one line, not the whole file (it used to come back
// pretty-printed with `api_keys` mirrored from `keys`).
//
// The edits are found by comparing two in-memory configs — the one the file last held and the one to write —
// and applied with jsonc-parser's `modify`, which keeps the surrounding text and indents what it inserts like
// its neighbours. Where the file's text does not have the shape the old config has at some point (a value the
// gateway normalised at load, say `api_keys` derived from `keys`, or an array whose length differs), the edit
// moves up to the nearest level where both agree and writes that whole value.
import { applyEdits, findNodeAtLocation, modify, parseTree, type Edit, type FormattingOptions, type JSONPath } from "jsonc-parser";

type Json = unknown;

interface Change {
  path: JSONPath;
  /** undefined removes the member. */
  value: Json;
}

const isRecord = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => equal(a[k], b[k]));
  }
  return false;
}

/** The changed leaves between `from` and `to`, as paths; arrays of another length are one change. */
function changes(from: Json, to: Json, path: JSONPath, out: Change[]): void {
  if (equal(from, to)) return;
  if (isRecord(from) && isRecord(to)) {
    for (const k of Object.keys(from)) if (from[k] !== undefined && to[k] === undefined) out.push({ path: [...path, k], value: undefined });
    for (const k of Object.keys(to)) {
      if (to[k] === undefined) continue;
      if (from[k] === undefined) out.push({ path: [...path, k], value: to[k] });
      else changes(from[k], to[k], [...path, k], out);
    }
    return;
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length) {
    for (let i = 0; i < to.length; i++) changes(from[i], to[i], [...path, i], out);
    return;
  }
  out.push({ path, value: to });
}

function child(v: Json, key: string | number): Json {
  if (Array.isArray(v)) return typeof key === "number" ? v[key] : undefined;
  return isRecord(v) ? v[String(key)] : undefined;
}

function at(v: Json, path: JSONPath, depth: number): Json {
  let node = v;
  for (let i = 0; i < depth && node !== undefined; i++) node = child(node, path[i]!);
  return node;
}

/** Whether the file's node and the old config's node hold their children at the same places. */
function sameShape(file: Json, old: Json): boolean {
  if (isRecord(file) && isRecord(old)) return true;
  return Array.isArray(file) && Array.isArray(old) && file.length === old.length;
}

/** The formatting of what jsonc-parser inserts, read from the file: its indent unit and line ends. */
export function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/**
 * `text` (a config file holding `fileConfig` as last loaded or written) edited to hold `next`, or null when the
 * text is not a JSON object (then the caller writes the whole file, as before).
 */
export function editConfigText(text: string, fileConfig: Json, next: Json): string | null {
  let parsed: Json;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const list: Change[] = [];
  changes(fileConfig, next, [], list);
  const formattingOptions = formattingOf(text);
  const written: JSONPath[] = [];
  for (const change of list) {
    // The deepest level at which the file's text still has the old config's shape.
    let depth = 0;
    while (depth < change.path.length && sameShape(at(parsed, change.path, depth), at(fileConfig, change.path, depth))) depth++;
    const path = change.path.slice(0, depth);
    if (written.some((w) => w.length <= path.length && w.every((k, i) => k === path[i]))) continue;
    const value = depth === change.path.length ? change.value : at(next, change.path, depth);
    if (path.length === 0) return null;
    text = applyEdits(text, inlineInsert(text, path, value) ?? modify(text, path, value, { formattingOptions }));
    parsed = JSON.parse(text);
    written.push(path);
  }
  return text;
}

/**
 * A new member of an object written on one line (`{"email": "a", "password": "b"}`) goes on that line: jsonc-parser
 * would break the object over several lines to insert it. Null when `path` is not such an insertion.
 */
function inlineInsert(text: string, path: JSONPath, value: Json): Edit[] | null {
  const key = path.at(-1);
  if (value === undefined || typeof key !== "string") return null;
  const root = parseTree(text);
  const parent = root && findNodeAtLocation(root, path.slice(0, -1));
  if (!parent || parent.type !== "object") return null;
  if (parent.children?.some((p) => p.children?.[0]?.value === key)) return null;
  const body = text.slice(parent.offset, parent.offset + parent.length);
  if (/[\r\n]/.test(body)) return null;
  const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  const last = parent.children?.at(-1);
  if (!last) return [{ offset: parent.offset + 1, length: 0, content: member }];
  return [{ offset: last.offset + last.length, length: 0, content: `, ${member}` }];
}
