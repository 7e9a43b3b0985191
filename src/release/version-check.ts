// The version check (gateway.md GET /admin/version, D15.5–D15.10): the newest published, non-draft,
// non-prerelease ReleaseEvent (a CreateEvent tag as the fallback), compared with the running version.
// Failures never throw: they become `check_error` in a 200 answer. Results are cached (10 min, 60 s failures).
import type { FeedEvent } from "./events";
import { fetchFeed } from "./feed-client";
import { compareVersions } from "./semver";

export interface ReleaseItem {
  tag: string;
  name: string | null;
  url: string | null;
  published_at: string | null;
  notes: string | null;
  prerelease: boolean;
}

interface Snapshot {
  at: number;
  releases: ReleaseItem[];
  tagFallback: ReleaseItem | null;
  error?: string;
  etag?: string;
}

const OK_TTL = 10 * 60_000;
const FAIL_TTL = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface VersionCheckerOptions {
  currentVersion: string;
  source: "build" | "dev";
  feedUrl(): string | undefined;
  feedToken(): string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  pageTimeoutMs?: number;
  totalTimeoutMs?: number;
}

function releasesOf(events: FeedEvent[]): { releases: ReleaseItem[]; tagFallback: ReleaseItem | null } {
  const releases: ReleaseItem[] = [];
  let tagFallback: ReleaseItem | null = null;
  for (const e of events) {
    if (e.validation_error && e.type !== "ReleaseEvent" && e.type !== "CreateEvent") continue;
    if (e.type === "ReleaseEvent" && e.payload.action === "published" && e.payload.release && typeof e.payload.release.tag_name === "string") {
      const r = e.payload.release;
      if (r.draft === true) continue;
      releases.push({
        tag: r.tag_name,
        name: typeof r.name === "string" ? r.name : null,
        url: typeof r.html_url === "string" ? r.html_url : null,
        published_at: typeof r.published_at === "string" ? r.published_at : e.created_at || null,
        notes: typeof r.body === "string" ? r.body.slice(0, 20_000) : null,
        prerelease: r.prerelease === true,
      });
    } else if (e.type === "CreateEvent" && e.payload.ref_type === "tag" && typeof e.payload.ref === "string") {
      const cand = { tag: e.payload.ref, name: null, url: null, published_at: e.created_at || null, notes: null, prerelease: false };
      if (!tagFallback || (cand.published_at ?? "") > (tagFallback.published_at ?? "")) tagFallback = cand;
    }
  }
  releases.sort((a, b) => (b.published_at ?? "").localeCompare(a.published_at ?? ""));
  return { releases, tagFallback };
}

export class VersionChecker {
  private snap: Snapshot | null = null;
  private inflight: Promise<Snapshot> | null = null;
  private now: () => number;

  constructor(private readonly opts: VersionCheckerOptions) {
    this.now = opts.now ?? Date.now;
  }

  private async load(force: boolean): Promise<{ snap: Snapshot; cached: boolean }> {
    const s = this.snap;
    if (!force && s && this.now() - s.at < (s.error ? FAIL_TTL : OK_TTL)) return { snap: s, cached: true };
    this.inflight ??= this.fetchSnapshot().finally(() => (this.inflight = null));
    const snap = await this.inflight;
    return { snap, cached: false };
  }

  private async fetchSnapshot(): Promise<Snapshot> {
    const url = this.opts.feedUrl();
    const at = this.now();
    if (!url) return { at, releases: [], tagFallback: null, error: "release feed not configured" };
    const prev = this.snap && !this.snap.error ? this.snap : null;
    const r = await fetchFeed({
      url,
      token: this.opts.feedToken(),
      userAgent: `svc-gateway/${this.opts.currentVersion}`,
      etag: prev?.etag,
      fetch: this.opts.fetch,
      pageTimeoutMs: this.opts.pageTimeoutMs,
      totalTimeoutMs: this.opts.totalTimeoutMs,
      enough: (events) => releasesOf(events).releases.filter((x) => !x.prerelease).length >= 10,
    });
    let snap: Snapshot;
    if (r.status === "not_modified" && prev) snap = { ...prev, at };
    else if (r.status === "ok") snap = { at, ...releasesOf(r.events), etag: r.etag };
    else snap = { at, releases: [], tagFallback: null, error: r.status === "error" ? r.error : "feed answered 304 without a cached result" };
    this.snap = snap;
    return snap;
  }

  async check(force = false) {
    const { snap, cached } = await this.load(force);
    const current = this.opts.currentVersion;
    const base = {
      success: true,
      current_version: current,
      current_tag: `v${current}`,
      source: this.opts.source,
      checked_at: iso(snap.at),
      cached,
      feed_configured: Boolean(this.opts.feedUrl()),
    };
    const latest = snap.releases.find((r) => !r.prerelease) ?? snap.tagFallback;
    if (snap.error || !latest)
      return {
        ...base,
        latest_tag: null,
        latest_version: null,
        release_url: null,
        published_at: null,
        has_update: false,
        ...(snap.error ? { check_error: snap.error } : { check_error: "no published release found in the feed" }),
      };
    const latestVersion = latest.tag.replace(/^v/, "");
    return {
      ...base,
      latest_tag: latest.tag,
      latest_version: latestVersion,
      release_url: latest.url,
      published_at: latest.published_at,
      has_update: (compareVersions(latestVersion, current) ?? 0) > 0,
    };
  }

  async releases(limit = 10, includePrereleases = false, force = false) {
    const { snap } = await this.load(force);
    const items = snap.releases.filter((r) => includePrereleases || !r.prerelease).slice(0, Math.max(1, Math.min(50, limit)));
    return { success: true, checked_at: iso(snap.at), items, ...(snap.error ? { check_error: snap.error } : {}) };
  }
}
