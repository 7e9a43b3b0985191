// An account as the request log, the metrics and the overview name it (issue 31): recognisable to its operator,
// useless to anyone who reads a scrape or a CSV. The same account always gets the same label, so a filter on
// the label finds its requests.
export function maskLabel(identifier: string): string {
  const at = identifier.indexOf("@");
  if (at > 0) return `${identifier.slice(0, Math.min(2, at))}***${identifier.slice(at)}`;
  if (/^\+?\d{7,}$/.test(identifier)) return `${identifier.slice(0, 3)}****${identifier.slice(-4)}`;
  return identifier.length <= 4 ? "****" : `${identifier.slice(0, 2)}***${identifier.slice(-2)}`;
}
