// Business credential extraction, first present non-empty form wins (D5.1).

export interface BusinessCredential {
  token: string;
  form: "bearer" | "x-api-key" | "x-alt-api-key" | "x-goog-api-key" | "query-key" | "query-api_key";
}

const BEARER = /^\s*bearer\s+(.+?)\s*$/i;

/** `search` is the query ("" or starting with "?"): only a request that has one pays for parsing it. */
export function extractBusinessCredential(request: Request, search: string): BusinessCredential | null {
  const auth = request.headers.get("authorization");
  if (auth) {
    const m = BEARER.exec(auth);
    if (m && m[1]) return { token: m[1], form: "bearer" };
  }
  const headerForms: [string, BusinessCredential["form"]][] = [
    ["x-api-key", "x-api-key"],
    ["x-alt-api-key", "x-alt-api-key"],
    ["x-goog-api-key", "x-goog-api-key"],
  ];
  for (const [name, form] of headerForms) {
    const v = request.headers.get(name)?.trim();
    if (v) return { token: v, form };
  }
  if (search.length <= 1) return null;
  const query = new URLSearchParams(search);
  const key = query.get("key")?.trim();
  if (key) return { token: key, form: "query-key" };
  const apiKey = query.get("api_key")?.trim();
  if (apiKey) return { token: apiKey, form: "query-api_key" };
  return null;
}
