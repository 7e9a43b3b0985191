// Parsers of the batch-import text boxes. Kept apart from the pages so they are unit-tested.

export interface ImportedAccount {
  email?: string;
  mobile?: string;
  password?: string;
  token?: string;
}

/** A JSON array of account objects, or one account per line: `login:password`, `login password`, `token:<t>`. */
export function parseAccountLines(text: string): ImportedAccount[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    const arr = JSON.parse(trimmed);
    if (!Array.isArray(arr)) throw new Error("JSON must be an array");
    return arr.filter((x) => x && typeof x === "object");
  }
  const out: ImportedAccount[] = [];
  for (const raw of trimmed.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (/^token[:\s]/i.test(line)) {
      out.push({ token: line.slice(6).trim() });
      continue;
    }
    const m = /^([^\s:|,]+)\s*[:\s|,]\s*(.+)$/.exec(line);
    const login = m ? m[1]! : line;
    const password = m ? m[2]!.trim() : "";
    const acc: ImportedAccount = login.includes("@") ? { email: login } : { mobile: login };
    if (password) acc.password = password;
    out.push(acc);
  }
  return out;
}

export interface ImportedProxy {
  type: string;
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** One proxy per line: `scheme://user:pass@host:port` (or without credentials), or `host:port:user:pass`. */
export function parseProxyLine(line: string): ImportedProxy {
  const s = line.trim();
  const url = /^([a-z0-9]+):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^:/@\s]+|\[[^\]]+\]):(\d{1,5})\/?$/i.exec(s);
  if (url) {
    const p: ImportedProxy = { type: url[1]!.toLowerCase() === "https" ? "http" : url[1]!.toLowerCase(), host: url[4]!, port: Number(url[5]) };
    if (url[2]) p.username = decodeURIComponent(url[2]);
    if (url[3]) p.password = decodeURIComponent(url[3]);
    return p;
  }
  const parts = s.split(":");
  if (parts.length === 2 || parts.length === 4) {
    const port = Number(parts[1]);
    if (parts[0] && Number.isInteger(port)) {
      const p: ImportedProxy = { type: "http", host: parts[0], port };
      if (parts.length === 4) {
        p.username = parts[2]!;
        p.password = parts[3]!;
      }
      return p;
    }
  }
  throw new Error(`cannot read proxy line: ${s.slice(0, 80)}`);
}

export function parseProxyLines(text: string): ImportedProxy[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map(parseProxyLine);
}
