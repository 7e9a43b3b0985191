// RFC 8288 Link headers (D15.3): quoted or unquoted rel, several rels per link, relative URLs resolved.
export function parseLinks(header: string | null, base: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  const re = /<([^>]*)>((?:\s*;\s*[^;,]+(?:=(?:"[^"]*"|[^;,]*))?)*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(header))) {
    let url: string;
    try {
      url = new URL(m[1]!, base).toString();
    } catch {
      continue;
    }
    const params = m[2] ?? "";
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]*))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? "").split(/\s+/).filter(Boolean);
    for (const r of rels) if (!(r.toLowerCase() in out)) out[r.toLowerCase()] = url;
  }
  return out;
}
