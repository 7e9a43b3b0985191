// Releases as the version check sees them (D15.5, D15.6, D15.10), distilled from parsed feed events.
//
// The payloads are re-checked here against the release schema rather than trusting `validation_error`: an
// event whose actor or repo drifted from the spec is still a perfectly good release announcement, while one
// whose release object lacks `tag_name` is useless whatever else it carries.
import { Value } from "@sinclair/typebox/value";
import type { FeedEvent } from "./events";
import { PAYLOAD_SCHEMAS, type PayloadOf } from "./event-payloads";

export interface ReleaseItem {
  tag: string;
  name: string | null;
  url: string | null;
  /** ISO 8601 UTC with milliseconds (D0.1); the release's `published_at`, else the event's `created_at`. */
  published_at: string | null;
  notes: string | null;
  prerelease: boolean;
}

export interface FeedReleases {
  /** Published, non-draft releases (prereleases included, flagged), newest first, one per tag. */
  releases: ReleaseItem[];
  /** D15.6 fallback: the newest tag-creation event whose tag is not a known draft or prerelease. */
  tagFallback: ReleaseItem | null;
}

export const NOTES_MAX_CHARS = 20_000;

/** ms since the epoch, or null for a missing or unparsable time. */
function timeOf(s: unknown): number | null {
  if (typeof s !== "string" || !s) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

/** Cut to `max` UTF-16 units without leaving half of a surrogate pair at the end. */
export function cutNotes(body: string, max = NOTES_MAX_CHARS): string {
  if (body.length <= max) return body;
  const cut = body.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

interface Dated {
  item: ReleaseItem;
  at: number | null;
  order: number;
}

/** Newest first; undated entries last; ties keep feed order (the feed itself lists newest first). */
const byNewest = (a: Dated, b: Dated) => (b.at ?? -Infinity) - (a.at ?? -Infinity) || a.order - b.order;

function releaseEventPayload(e: FeedEvent): PayloadOf<"ReleaseEvent"> | null {
  if (e.type !== "ReleaseEvent" || !Value.Check(PAYLOAD_SCHEMAS.ReleaseEvent, e.payload)) return null;
  return e.payload;
}

function createdTag(e: FeedEvent): string | null {
  if (e.type !== "CreateEvent") return null;
  const p = e.payload as Record<string, unknown>;
  return p.ref_type === "tag" && typeof p.ref === "string" && p.ref !== "" ? p.ref : null;
}

export function collectReleases(events: readonly FeedEvent[]): FeedReleases {
  const published: Dated[] = [];
  const tags: Dated[] = [];
  // Tags that belong to drafts or prereleases must not come back in through the tag fallback.
  const notAReleaseTag = new Set<string>();
  events.forEach((e, order) => {
    const p = releaseEventPayload(e);
    if (p) {
      const r = p.release;
      if (r.draft === true || r.prerelease === true) notAReleaseTag.add(r.tag_name);
      if (p.action !== "published" || r.draft === true) return;
      const at = timeOf(r.published_at) ?? timeOf(e.created_at);
      const item: ReleaseItem = {
        tag: r.tag_name,
        name: r.name ?? null,
        url: r.html_url ?? null,
        published_at: at === null ? null : new Date(at).toISOString(),
        notes: typeof r.body === "string" ? cutNotes(r.body) : null,
        prerelease: r.prerelease === true,
      };
      published.push({ item, at, order });
      return;
    }
    const tag = createdTag(e);
    if (tag !== null) {
      const at = timeOf(e.created_at);
      const item: ReleaseItem = { tag, name: null, url: null, published_at: at === null ? null : new Date(at).toISOString(), notes: null, prerelease: false };
      tags.push({ item, at, order });
    }
  });
  published.sort(byNewest);
  const seen = new Set<string>();
  const releases = published.map((d) => d.item).filter((r) => !seen.has(r.tag) && seen.add(r.tag));
  const tagFallback = tags.sort(byNewest).find((d) => !notAReleaseTag.has(d.item.tag))?.item ?? null;
  return { releases, tagFallback };
}

/** D15.6: the newest published non-draft non-prerelease, else the tag fallback. */
export function latestRelease(r: FeedReleases): ReleaseItem | null {
  return r.releases.find((x) => !x.prerelease) ?? r.tagFallback;
}

/** Releases that count toward the "10 known releases" early stop of D15.3. */
export function qualifyingCount(events: readonly FeedEvent[]): number {
  return collectReleases(events).releases.filter((x) => !x.prerelease).length;
}
