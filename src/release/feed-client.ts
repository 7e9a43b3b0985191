// Reads the release feed (D15.3): first page with If-None-Match, rel="next" pages up to 5, 5 s per page and
// 10 s in all, stopping once 10 qualifying releases are known.
import { parseEvents, type FeedEvent } from "./events";
import { parseLinks } from "./link";

export interface FeedFetchOptions {
  url: string;
  token?: string;
  userAgent: string;
  etag?: string;
  fetch?: typeof fetch;
  pageTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxPages?: number;
  enough?: (events: FeedEvent[]) => boolean;
}

export type FeedFetchResult =
  | { status: "ok"; events: FeedEvent[]; skipped: number; etag?: string }
  | { status: "not_modified" }
  | { status: "error"; error: string };

export async function fetchFeed(o: FeedFetchOptions): Promise<FeedFetchResult> {
  const doFetch = o.fetch ?? fetch;
  const deadline = AbortSignal.timeout(o.totalTimeoutMs ?? 10_000);
  const events: FeedEvent[] = [];
  let skipped = 0;
  let etag: string | undefined;
  let url: string | undefined = o.url;
  for (let page = 0; url && page < (o.maxPages ?? 5); page++) {
    const headers: Record<string, string> = { Accept: "application/json", "User-Agent": o.userAgent };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    if (page === 0 && o.etag) headers["If-None-Match"] = o.etag;
    let res: Response;
    try {
      res = await doFetch(url, { headers, signal: AbortSignal.any([deadline, AbortSignal.timeout(o.pageTimeoutMs ?? 5_000)]) });
    } catch (e) {
      return { status: "error", error: `feed unreachable: ${(e as Error).name === "TimeoutError" ? "timed out" : (e as Error).message}` };
    }
    if (page === 0 && res.status === 304) return { status: "not_modified" };
    if (res.status !== 200) return { status: "error", error: `feed returned HTTP ${res.status}` };
    if (page === 0) etag = res.headers.get("etag") ?? undefined;
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      return { status: "error", error: "feed returned a body that is not JSON" };
    }
    if (!Array.isArray(body)) return { status: "error", error: "feed returned JSON that is not an array" };
    const parsed = parseEvents(body);
    events.push(...parsed.events);
    skipped += parsed.skipped;
    if (o.enough?.(events)) break;
    url = parseLinks(res.headers.get("link"), url).next;
  }
  return { status: "ok", events, skipped, etag };
}
