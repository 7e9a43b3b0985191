// A fake code host serving a repository activity event feed on loopback, page by page with Link headers.
export interface FakeFeed {
  url: string;
  hits: { path: string; headers: Headers }[];
  set(route: string, answer: FeedAnswer): void;
  stop(): void;
}

export type FeedAnswer = { status?: number; body?: string | unknown; headers?: Record<string, string>; delayMs?: number };

const actor = { id: 1, login: "dev", display_login: "dev", gravatar_id: "", url: "https://host.example/users/dev", avatar_url: "https://host.example/a.png" };
const repo = { id: 7, name: "owner/svc-gateway", url: "https://host.example/repos/owner/svc-gateway" };

export function ev(id: string | number, type: string, payload: unknown, created_at = "2026-01-01T00:00:00Z", extra: Record<string, unknown> = {}) {
  return { id, type, actor, repo, payload, public: true, created_at, ...extra };
}

export function release(tag: string, published_at: string, opts: { draft?: boolean; prerelease?: boolean; action?: string } = {}) {
  return {
    action: opts.action ?? "published",
    release: { tag_name: tag, name: `Release ${tag}`, html_url: `https://host.example/r/${tag}`, published_at, draft: opts.draft ?? false, prerelease: opts.prerelease ?? false, body: `Notes for ${tag}` },
  };
}

/** One event of every type of event-feed.md, with string and integer ids. */
export function everyType(): unknown[] {
  return [
    ev("1", "CommitCommentEvent", { action: "created", comment: { id: 1 } }),
    ev(2, "CreateEvent", { ref: "v0.0.9", ref_type: "tag", full_ref: "refs/tags/v0.0.9", master_branch: "main", description: "gw", pusher_type: "user" }),
    ev("3", "DeleteEvent", { ref: "old", ref_type: "branch", full_ref: "refs/heads/old", pusher_type: "user" }),
    ev(4, "DiscussionEvent", { action: "created", discussion: { id: 4 } }),
    ev("5", "ForkEvent", { action: "forked", forkee: { id: 5 } }),
    ev(6, "GollumEvent", { pages: [{ page_name: "Home", title: "Home", summary: null, action: "edited", sha: "abc", html_url: "https://host.example/wiki" }] }),
    ev("7", "IssueCommentEvent", { action: "created", issue: { id: 7 }, comment: { id: 8 } }),
    ev(8, "IssuesEvent", { action: "opened", issue: { id: 9 } }),
    ev("9", "MemberEvent", { action: "added", member: { id: 10 } }, undefined, { org: { id: 3, login: "org" } }),
    ev(10, "PublicEvent", {}),
    ev("11", "PullRequestEvent", { action: "opened", number: 12, pull_request: { id: 12 } }),
    ev(12, "PullRequestReviewEvent", { action: "created", pull_request: { id: 12 }, review: { id: 13 } }),
    ev("13", "PullRequestReviewCommentEvent", { action: "created", pull_request: { id: 12 }, comment: { id: 14 } }),
    ev(14, "PushEvent", { repository_id: 7, push_id: 99, ref: "refs/heads/main", head: "h", before: "b" }),
    ev("15", "WatchEvent", { action: "started" }),
  ];
}

export function startFakeFeed(): FakeFeed {
  const routes = new Map<string, FeedAnswer>();
  const hits: FakeFeed["hits"] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const u = new URL(req.url);
      const key = u.pathname + u.search;
      hits.push({ path: key, headers: req.headers });
      const a = routes.get(key) ?? routes.get(u.pathname);
      if (!a) return new Response("not found", { status: 404 });
      if (a.delayMs) await Bun.sleep(a.delayMs);
      const etag = a.headers?.ETag;
      if (etag && req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { ETag: etag } });
      const body = typeof a.body === "string" ? a.body : JSON.stringify(a.body ?? []);
      return new Response(body, { status: a.status ?? 200, headers: { "Content-Type": "application/json", ...(a.headers ?? {}) } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    hits,
    set: (route, answer) => routes.set(route, answer),
    stop: () => server.stop(true),
  };
}
