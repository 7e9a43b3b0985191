// The version check behind GET /admin/version and GET /admin/version/releases (gateway.md, D15.6–D15.10).
// The running version is compared with the newest published release of the feed. Nothing here throws: every
// failure is a result with `check_error` (the routes answer 200). Feed reads are cached per feed URL and token
// (10 min after success, 60 s after failure, D15.8), concurrent callers share one read, and a 304 on the
// first page revalidates the last good result.
import type { FeedFetchResult } from "./feed-client";
import type { FeedReleases, ReleaseItem } from "./release-list";
import { compareVersions } from "./semver";

export type { ReleaseItem } from "./release-list";

// The feed reader and the release list (the 16 event types' payload schemas, built at load) are imported on the
// first check, not with the server's code: a start does not read the feed (issue 35).
let feedModules: Promise<[typeof import("./feed-client"), typeof import("./release-list")]> | undefined;
const loadFeedModules = () => (feedModules ??= Promise.all([import("./feed-client"), import("./release-list")]));

export const SUCCESS_TTL_MS = 10 * 60_000;
export const FAILURE_TTL_MS = 60_000;
/** D15.3: stop paging once this many qualifying releases are known. */
export const ENOUGH_RELEASES = 10;
export const NOT_CONFIGURED = "release feed not configured";
export const NO_RELEASE = "no published release or tag found in the feed";

export interface VersionResult {
  success: true;
  current_version: string;
  current_tag: string;
  source: "build" | "dev";
  checked_at: string;
  latest_tag: string | null;
  latest_version: string | null;
  release_url: string | null;
  published_at: string | null;
  has_update: boolean;
  cached: boolean;
  feed_configured: boolean;
  check_error?: string;
}

export interface ReleasesResult {
  success: true;
  checked_at: string;
  items: ReleaseItem[];
  check_error?: string;
}

export interface VersionCheckerOptions {
  currentVersion: string;
  source: "build" | "dev";
  feedUrl(): string | undefined;
  feedToken(): string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  /** Overrides of the D15.3 timeouts, for tests. */
  pageTimeoutMs?: number;
  totalTimeoutMs?: number;
}

interface Snapshot {
  key: string;
  /** When the data was fetched (or revalidated by a 304). */
  at: number;
  data: FeedReleases | null;
  error?: string;
}

interface LastGood {
  key: string;
  etag: string;
  data: FeedReleases;
}

const cacheKey = (url: string, token: string | undefined) => `${url}\n${token ?? ""}`;
const iso = (ms: number) => new Date(ms).toISOString();
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;

export class VersionChecker {
  private snap: Snapshot | null = null;
  private lastGood: LastGood | null = null;
  private readonly inflight = new Map<string, Promise<Snapshot>>();
  private readonly now: () => number;

  constructor(private readonly opts: VersionCheckerOptions) {
    this.now = opts.now ?? Date.now;
  }

  async check(force = false): Promise<VersionResult> {
    const current = this.opts.currentVersion;
    const base = {
      success: true as const,
      current_version: current,
      current_tag: `v${current}`,
      source: this.opts.source,
    };
    const none = { latest_tag: null, latest_version: null, release_url: null, published_at: null, has_update: false };
    try {
      const { snap, cached, configured } = await this.load(force);
      const head = { ...base, checked_at: iso(snap.at) };
      const tail = { cached, feed_configured: configured };
      const latest = snap.data && (await loadFeedModules())[1].latestRelease(snap.data);
      if (snap.error || !latest) return { ...head, ...none, ...tail, check_error: snap.error ?? NO_RELEASE };
      const latestVersion = latest.tag.replace(/^v/i, "");
      return {
        ...head,
        latest_tag: latest.tag,
        latest_version: latestVersion,
        release_url: latest.url,
        published_at: latest.published_at,
        // D15.7: an unparsable side means "no update", not an error
        has_update: compareVersions(latestVersion, current) === 1,
        ...tail,
      };
    } catch (e) {
      return { ...base, checked_at: iso(this.now()), ...none, cached: false, feed_configured: this.configured(), check_error: `version check failed: ${(e as Error)?.message ?? e}` };
    }
  }

  async releases(limit: number = DEFAULT_LIMIT, includePrereleases = false, force = false): Promise<ReleasesResult> {
    const n = Number.isFinite(limit) ? Math.min(MAX_LIMIT, Math.max(1, Math.trunc(limit))) : DEFAULT_LIMIT;
    try {
      const { snap } = await this.load(force);
      const items = (snap.data?.releases ?? []).filter((r) => includePrereleases || !r.prerelease).slice(0, n);
      return { success: true, checked_at: iso(snap.at), items, ...(snap.error ? { check_error: snap.error } : {}) };
    } catch (e) {
      return { success: true, checked_at: iso(this.now()), items: [], check_error: `version check failed: ${(e as Error)?.message ?? e}` };
    }
  }

  private currentKey(): string | null {
    const url = this.opts.feedUrl();
    return url ? cacheKey(url, this.opts.feedToken() || undefined) : null;
  }

  /** Used on the error path too, so it must not throw itself. */
  private configured(): boolean {
    try {
      return Boolean(this.opts.feedUrl());
    } catch {
      return false;
    }
  }

  private async load(force: boolean): Promise<{ snap: Snapshot; cached: boolean; configured: boolean }> {
    const url = this.opts.feedUrl();
    if (!url) return { snap: { key: "", at: this.now(), data: null, error: NOT_CONFIGURED }, cached: false, configured: false };
    const token = this.opts.feedToken() || undefined;
    // A changed URL or token (config edited at runtime) must not be answered from the old feed's cache.
    const key = cacheKey(url, token);
    const s = this.snap;
    if (!force && s && s.key === key && this.now() - s.at < (s.error ? FAILURE_TTL_MS : SUCCESS_TTL_MS))
      return { snap: s, cached: true, configured: true };
    let p = this.inflight.get(key);
    if (!p) {
      p = this.refresh(key, url, token).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return { snap: await p, cached: false, configured: true };
  }

  private async refresh(key: string, url: string, token: string | undefined): Promise<Snapshot> {
    const good = this.lastGood?.key === key ? this.lastGood : null;
    const [{ fetchFeed }, { collectReleases, qualifyingCount }] = await loadFeedModules();
    const r: FeedFetchResult = await fetchFeed({
      url,
      token,
      userAgent: `svc-gateway/${this.opts.currentVersion}`,
      etag: good?.etag,
      fetch: this.opts.fetch,
      pageTimeoutMs: this.opts.pageTimeoutMs,
      totalTimeoutMs: this.opts.totalTimeoutMs,
      enough: (events) => qualifyingCount(events) >= ENOUGH_RELEASES,
    });
    const at = this.now();
    let snap: Snapshot;
    if (r.status === "ok") {
      snap = { key, at, data: collectReleases(r.events) };
      this.lastGood = r.etag ? { key, etag: r.etag, data: snap.data! } : null;
    } else if (r.status === "not_modified") {
      // Only sent If-None-Match when `good` existed, so a 304 without it is the server misbehaving.
      snap = good ? { key, at, data: good.data } : { key, at, data: null, error: "feed answered 304 with no cached result" };
    } else {
      snap = { key, at, data: null, error: r.error };
    }
    // A slow read for a feed that was reconfigured meanwhile must not become the current feed's cache.
    if (key === this.currentKey()) this.snap = snap;
    return snap;
  }
}
