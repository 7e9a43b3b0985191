// Reads the release feed (D15.3): GET with Accept/User-Agent/optional bearer token, If-None-Match on the first
// page, rel="next" pages up to 5, 5 s per page and 10 s in all, stopping early once the caller has enough.
// Every failure becomes an error string for `check_error`; nothing here throws.
import { parseEvents, type FeedEvent } from "./events";
import { parseLinks } from "./link";

export interface FeedFetchOptions {
  url: string;
  token?: string;
  userAgent: string;
  /** ETag of the cached first page; sent as If-None-Match. */
  etag?: string;
  fetch?: typeof fetch;
  pageTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxPages?: number;
  /** Stop following `next` once this says the events read so far are enough. */
  enough?: (events: readonly FeedEvent[]) => boolean;
}

export type FeedFetchResult =
  | { status: "ok"; events: FeedEvent[]; skipped: number; pages: number; etag?: string }
  | { status: "not_modified" }
  | { status: "error"; error: string };

export const PAGE_TIMEOUT_MS = 5_000;
export const TOTAL_TIMEOUT_MS = 10_000;
export const MAX_PAGES = 5;

type PageOutcome = { ok: true; body: unknown; res: Response } | { ok: false; result: FeedFetchResult };

function validFeedUrl(url: string): URL | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u : null;
  } catch {
    return null;
  }
}

function reasonOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && code && !msg.includes(code) ? `${msg} (${code})` : msg || "network error";
}

export async function fetchFeed(o: FeedFetchOptions): Promise<FeedFetchResult> {
  const first = validFeedUrl(o.url);
  if (!first) return { status: "error", error: "feed URL is not a valid http(s) URL" };
  const doFetch = o.fetch ?? fetch;
  const pageMs = o.pageTimeoutMs ?? PAGE_TIMEOUT_MS;
  const totalMs = o.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  const total = AbortSignal.timeout(totalMs);

  // Which timer fired decides the message; the abort reason itself is not informative across runtimes.
  const timeoutMessage = (page: AbortSignal) =>
    total.aborted ? `feed unreachable: timed out after ${totalMs} ms in all` : page.aborted ? `feed unreachable: page timed out after ${pageMs} ms` : null;

  async function readPage(url: string, isFirst: boolean): Promise<PageOutcome> {
    const headers: Record<string, string> = { Accept: "application/json", "User-Agent": o.userAgent };
    // The token is for the feed's host only: a Link header must not be able to send it elsewhere.
    if (o.token && new URL(url).origin === first!.origin) headers.Authorization = `Bearer ${o.token}`;
    if (isFirst && o.etag) headers["If-None-Match"] = o.etag;
    const page = AbortSignal.timeout(pageMs);
    const signal = AbortSignal.any([total, page]);
    let res: Response;
    try {
      res = await doFetch(url, { headers, signal });
    } catch (e) {
      return { ok: false, result: { status: "error", error: timeoutMessage(page) ?? `feed unreachable: ${reasonOf(e)}` } };
    }
    if (isFirst && res.status === 304) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, result: { status: "not_modified" } };
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, result: { status: "error", error: `feed returned HTTP ${res.status}` } };
    }
    let text: string;
    try {
      // A server that sends headers and then stalls is still a timeout. Bun's fetch aborts the body with its
      // signal; an injected fetch may not, so the read also races the timers itself.
      text = await Promise.race([
        res.text(),
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
      ]);
    } catch (e) {
      await res.body?.cancel().catch(() => {});
      return { ok: false, result: { status: "error", error: timeoutMessage(page) ?? `feed unreachable: ${reasonOf(e)}` } };
    }
    try {
      return { ok: true, body: JSON.parse(text), res };
    } catch {
      return { ok: false, result: { status: "error", error: "feed returned a body that is not JSON" } };
    }
  }

  const events: FeedEvent[] = [];
  const visited = new Set<string>();
  let skipped = 0;
  let etag: string | undefined;
  let url: string | undefined = first.toString();
  let pages = 0;
  while (url && pages < (o.maxPages ?? MAX_PAGES) && !visited.has(url)) {
    visited.add(url);
    const out = await readPage(url, pages === 0);
    if (!out.ok) return out.result;
    if (!Array.isArray(out.body)) return { status: "error", error: "feed returned JSON that is not an array" };
    if (pages === 0) etag = out.res.headers.get("etag") ?? undefined;
    pages++;
    const parsed = parseEvents(out.body);
    events.push(...parsed.events);
    skipped += parsed.skipped;
    if (o.enough?.(events)) break;
    url = parseLinks(out.res.headers.get("link"), url).next;
  }
  return { status: "ok", events, skipped, pages, etag };
}
