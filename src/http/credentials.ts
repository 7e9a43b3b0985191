// Business credential extraction, first present non-empty form wins (D5.1).

export interface BusinessCredential {
  token: string;
  form: "bearer" | "x-api-key" | "x-alt-api-key" | "x-goog-api-key" | "query-key" | "query-api_key";
}

export function extractBusinessCredential(request: Request, url: URL): BusinessCredential | null {
  const auth = request.headers.get("authorization");
  if (auth) {
    const m = /^\s*bearer\s+(.+?)\s*$/i.exec(auth);
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
  const key = url.searchParams.get("key")?.trim();
  if (key) return { token: key, form: "query-key" };
  const apiKey = url.searchParams.get("api_key")?.trim();
  if (apiKey) return { token: apiKey, form: "query-api_key" };
  return null;
}
