// A fake code host serving a repository activity event feed on 127.0.0.1 (port 0), for the release tests.
// Routes are keyed by path+query (falling back to the path alone) and answer with a status, a JSON or raw
// body, headers (Link, ETag, …), an optional delay before the headers, or a body that stalls halfway.
// Every request is recorded so tests can check what the client sent and how many pages it read.

export interface FeedAnswer {
  status?: number;
  /** A string is sent as is (for malformed bodies); anything else is JSON-encoded. */
  body?: unknown;
  headers?: Record<string, string>;
  /** With an ETag, a request carrying the same If-None-Match gets 304. */
  etag?: string;
  /** Wait this long before answering at all. */
  delayMs?: number;
  /** Send headers and half of the body, then wait this long before the rest. */
  stallBodyMs?: number;
}

export interface FeedHit {
  path: string;
  headers: Record<string, string>;
}

export interface FakeFeed {
  /** http://127.0.0.1:<port> */
  origin: string;
  hits: FeedHit[];
  set(route: string, answer: FeedAnswer): void;
  hitsOf(route: string): FeedHit[];
  stop(): void;
}

export function startFakeFeed(): FakeFeed {
  const routes = new Map<string, FeedAnswer>();
  const hits: FeedHit[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      const path = u.pathname + u.search;
      hits.push({ path, headers: Object.fromEntries(req.headers) });
      const a = routes.get(path) ?? routes.get(u.pathname);
      if (!a) return Response.json({ message: "Not Found" }, { status: 404 });
      if (a.delayMs) await Bun.sleep(a.delayMs);
      const headers: Record<string, string> = { "Content-Type": "application/json", ...(a.etag ? { ETag: a.etag } : {}), ...a.headers };
      if (a.etag && req.headers.get("if-none-match") === a.etag) return new Response(null, { status: 304, headers: { ETag: a.etag } });
      const text = typeof a.body === "string" ? a.body : JSON.stringify(a.body ?? []);
      if (!a.stallBodyMs) return new Response(text, { status: a.status ?? 200, headers });
      const half = Math.floor(text.length / 2);
      const stall = a.stallBodyMs;
      const stream = new ReadableStream({
        async start(c) {
          c.enqueue(new TextEncoder().encode(text.slice(0, half)));
          await Bun.sleep(stall);
          try {
            c.enqueue(new TextEncoder().encode(text.slice(half)));
            c.close();
          } catch {
            // the client gave up and the stream is gone: nothing to finish
          }
        },
      });
      return new Response(stream, { status: a.status ?? 200, headers });
    },
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    hits,
    set: (route, answer) => void routes.set(route, answer),
    hitsOf: (route) => hits.filter((h) => h.path === route),
    stop: () => void server.stop(true),
  };
}

// ---- event fixtures -------------------------------------------------------------------------------------

const actor = { id: 1, login: "dev", display_login: "dev", gravatar_id: "", url: "https://host.example/users/dev", avatar_url: "https://host.example/a.png" };
const repo = { id: 7, name: "owner/svc-gateway", url: "https://host.example/repos/owner/svc-gateway" };
export const org = { id: 3, login: "owner", gravatar_id: "", url: "https://host.example/orgs/owner", avatar_url: "https://host.example/o.png" };

/** A complete event object of event-feed.md. */
export function ev(id: string | number, type: string, payload: unknown, created_at = "2026-01-01T00:00:00Z", extra: Record<string, unknown> = {}) {
  return { id, type, actor, repo, payload, public: true, created_at, ...extra };
}

export interface ReleaseOpts {
  draft?: boolean;
  prerelease?: boolean;
  action?: string;
  body?: string | null;
  published_at?: string | null;
}

export function releasePayload(tag: string, published_at: string | null, o: ReleaseOpts = {}) {
  return {
    action: o.action ?? "published",
    release: {
      id: 1000,
      tag_name: tag,
      name: `Release ${tag}`,
      html_url: `https://host.example/owner/svc-gateway/releases/tag/${tag}`,
      published_at,
      draft: o.draft ?? false,
      prerelease: o.prerelease ?? false,
      body: o.body === undefined ? `Notes for ${tag}` : o.body,
      assets: [],
    },
  };
}

export const releaseEvent = (id: string | number, tag: string, published_at: string | null, o: ReleaseOpts = {}) =>
  ev(id, "ReleaseEvent", releasePayload(tag, published_at, o), published_at ?? "2026-01-01T00:00:00Z");

export const tagEvent = (id: string | number, tag: string, created_at: string) =>
  ev(id, "CreateEvent", { ref: tag, ref_type: "tag", full_ref: `refs/tags/${tag}`, master_branch: "main", description: null, pusher_type: "user" }, created_at);

/** One valid event of each of the 16 types of event-feed.md, ids alternating string and integer. */
export function everyType(): Record<string, unknown>[] {
  const user = { id: 10, login: "someone" };
  return [
    ev("1", "CommitCommentEvent", { action: "created", comment: { id: 1, body: "nice" } }),
    ev(2, "CreateEvent", { ref: "feature", ref_type: "branch", full_ref: "refs/heads/feature", master_branch: "main", description: "gateway", pusher_type: "user" }),
    ev("3", "DeleteEvent", { ref: "old", ref_type: "branch", full_ref: "refs/heads/old", pusher_type: "user" }),
    ev(4, "DiscussionEvent", { action: "created", discussion: { id: 4, title: "Q" } }),
    ev("5", "ForkEvent", { action: "forked", forkee: { id: 5, full_name: "someone/svc-gateway" } }),
    ev(6, "GollumEvent", { pages: [{ page_name: "Home", title: "Home", summary: null, action: "edited", sha: "abc", html_url: "https://host.example/wiki/Home" }] }),
    ev("7", "IssueCommentEvent", { action: "created", issue: { id: 7 }, comment: { id: 8 } }),
    ev(8, "IssuesEvent", { action: "opened", issue: { id: 9 }, assignee: null, assignees: [user], labels: [{ name: "bug" }] }),
    ev("9", "MemberEvent", { action: "added", member: user }, undefined, { org }),
    ev(10, "PublicEvent", {}),
    ev("11", "PullRequestEvent", { action: "labeled", number: 12, pull_request: { id: 12 }, label: { name: "x" }, labels: [{ name: "x" }] }),
    ev(12, "PullRequestReviewEvent", { action: "created", pull_request: { id: 12 }, review: { id: 13 } }),
    ev("13", "PullRequestReviewCommentEvent", { action: "created", pull_request: { id: 12 }, comment: { id: 14 } }),
    ev(14, "PushEvent", { repository_id: 7, push_id: 99, ref: "refs/heads/main", head: "h2", before: "h1" }),
    ev("15", "ReleaseEvent", releasePayload("v0.0.1", "2025-01-01T00:00:00Z")),
    ev(16, "WatchEvent", { action: "started" }),
  ];
}
