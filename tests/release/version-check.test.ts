import { afterAll, describe, expect, test } from "bun:test";
import { FAILURE_TTL_MS, NO_RELEASE, NOT_CONFIGURED, SUCCESS_TTL_MS, VersionChecker, type VersionCheckerOptions } from "../../src/release/version-check";
import { everyType, releaseEvent, startFakeFeed, tagEvent } from "../helpers/fake-feed";

const feed = startFakeFeed();
afterAll(() => feed.stop());

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const T0 = Date.parse("2026-11-22T09:30:00.123Z");

/** A checker on a fake clock, so cache ages are set by the test, never waited for. */
function checker(path: string, o: Partial<VersionCheckerOptions> & { clock?: { t: number } } = {}) {
  const clock = o.clock ?? { t: T0 };
  const c = new VersionChecker({
    currentVersion: "0.1.0",
    source: "build",
    feedUrl: () => `${feed.origin}${path}`,
    feedToken: () => "feed-secret",
    now: () => clock.t,
    pageTimeoutMs: 2_000,
    totalTimeoutMs: 4_000,
    ...o,
  });
  return { c, clock };
}

// A three-page feed: events of every type, a draft and a prerelease newer than the real latest release.
feed.set("/main/events", {
  etag: '"main-1"',
  body: [...everyType(), releaseEvent(20, "v0.2.0", "2026-03-01T00:00:00Z")],
  headers: { Link: '<?page=2>; rel="next", <?page=3>; rel="last"' },
});
feed.set("/main/events?page=2", {
  body: [
    releaseEvent("21", "v0.9.0", "2026-05-01T00:00:00Z", { draft: true }),
    releaseEvent(22, "v1.0.0-rc.1", "2026-06-01T00:00:00Z", { prerelease: true }),
    releaseEvent("23", "v0.3.0", "2026-04-01T00:00:00Z"),
  ],
  headers: { Link: `<${feed.origin}/main/events?page=3>; rel="next"` },
});
feed.set("/main/events?page=3", { body: [tagEvent(30, "v0.4.0-dev", "2026-07-01T00:00:00Z")] });

describe("GET /admin/version result (gateway.md, D15.6, D15.9)", () => {
  test("reports the newest published release across pages with every field", async () => {
    const { c } = checker("/main/events");
    expect(await c.check()).toEqual({
      success: true,
      current_version: "0.1.0",
      current_tag: "v0.1.0",
      source: "build",
      checked_at: "2026-11-22T09:30:00.123Z",
      latest_tag: "v0.3.0",
      latest_version: "0.3.0",
      release_url: "https://host.example/owner/svc-gateway/releases/tag/v0.3.0",
      published_at: "2026-04-01T00:00:00.000Z",
      has_update: true,
      cached: false,
      feed_configured: true,
    });
    expect(feed.hitsOf("/main/events")[0]!.headers).toMatchObject({ authorization: "Bearer feed-secret", "user-agent": "svc-gateway/0.1.0", accept: "application/json" });
  });

  test.each([
    ["0.3.0", false],
    ["0.4.0", false],
    ["0.3.0-rc.2", true],
    ["0.2.9", true],
    ["dev-build", false],
  ])("current %s → has_update %p", async (currentVersion, hasUpdate) => {
    const r = await checker("/main/events", { currentVersion }).c.check();
    expect(r.has_update).toBe(hasUpdate);
    expect(r.check_error).toBeUndefined();
  });

  test("with no release the newest tag CreateEvent answers, with a null release_url", async () => {
    feed.set("/tags/events", { body: [tagEvent(1, "v0.0.5", "2026-02-01T00:00:00Z"), tagEvent("2", "v0.2.0", "2026-02-03T00:00:00Z"), ...everyType().filter((e) => e.type !== "ReleaseEvent")] });
    const r = await checker("/tags/events").c.check();
    expect(r).toMatchObject({ latest_tag: "v0.2.0", latest_version: "0.2.0", release_url: null, published_at: "2026-02-03T00:00:00.000Z", has_update: true });
    expect(r.check_error).toBeUndefined();
  });

  test("a feed with neither release nor tag says so, with null latest fields", async () => {
    feed.set("/quiet/events", { body: everyType().filter((e) => e.type !== "ReleaseEvent") });
    expect(await checker("/quiet/events").c.check()).toMatchObject({ check_error: NO_RELEASE, latest_tag: null, latest_version: null, release_url: null, published_at: null, has_update: false });
  });

  test("an unset feed is reported and never fetched", async () => {
    const before = feed.hits.length;
    const c = new VersionChecker({ currentVersion: "0.1.0", source: "dev", feedUrl: () => undefined, feedToken: () => undefined, now: () => T0 });
    expect(await c.check()).toEqual({
      success: true,
      current_version: "0.1.0",
      current_tag: "v0.1.0",
      source: "dev",
      checked_at: "2026-11-22T09:30:00.123Z",
      latest_tag: null,
      latest_version: null,
      release_url: null,
      published_at: null,
      has_update: false,
      cached: false,
      feed_configured: false,
      check_error: NOT_CONFIGURED,
    });
    expect(feed.hits.length).toBe(before);
  });

  test.each([
    ["a missing feed", "/gone/events", null, "feed returned HTTP 404"],
    ["a 500", "/boom/events", { status: 500, body: "oops" }, "feed returned HTTP 500"],
    ["malformed JSON", "/bad/events", { body: "{not json" }, "feed returned a body that is not JSON"],
    ["a non-array body", "/obj/events", { body: { message: "hi" } }, "feed returned JSON that is not an array"],
    ["a slow feed", "/slow/events", { delayMs: 3_000, body: [] }, "feed unreachable: page timed out after 50 ms"],
  ])("%s → check_error with the current-version fields", async (_name, path, answer, error) => {
    if (answer) feed.set(path, answer);
    const r = await checker(path, { pageTimeoutMs: 50 }).c.check();
    expect(r).toMatchObject({ success: true, current_version: "0.1.0", current_tag: "v0.1.0", source: "build", latest_tag: null, has_update: false, feed_configured: true, check_error: error });
    expect(r.checked_at).toMatch(ISO_MS);
  });

  test("a checker whose config throws still answers with check_error", async () => {
    const c = new VersionChecker({ currentVersion: "0.1.0", source: "dev", feedUrl: () => { throw new Error("config broken"); }, feedToken: () => undefined });
    const r = await c.check();
    expect(r.check_error).toContain("config broken");
    expect((await c.releases(5)).check_error).toContain("config broken");
  });
});

describe("cache (D15.8)", () => {
  test("a success is served from cache for 10 minutes with its fetch time; then revalidated with If-None-Match", async () => {
    feed.set("/cache/events", { etag: '"c1"', body: [releaseEvent(1, "v0.5.0", "2026-01-01T00:00:00Z")] });
    const { c, clock } = checker("/cache/events");
    await c.check();
    clock.t += SUCCESS_TTL_MS - 1;
    const hit = await c.check();
    expect(hit).toMatchObject({ cached: true, checked_at: "2026-11-22T09:30:00.123Z", latest_tag: "v0.5.0" });
    expect(feed.hitsOf("/cache/events")).toHaveLength(1);
    clock.t += 1;
    const again = await c.check();
    expect(again).toMatchObject({ cached: false, latest_tag: "v0.5.0", checked_at: new Date(T0 + SUCCESS_TTL_MS).toISOString() });
    const hits = feed.hitsOf("/cache/events");
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers["if-none-match"]).toBe('"c1"');
  });

  test("force bypasses a fresh cache", async () => {
    feed.set("/force/events", { body: [releaseEvent(1, "v0.5.0", "2026-01-01T00:00:00Z")] });
    const { c } = checker("/force/events");
    await c.check();
    feed.set("/force/events", { body: [releaseEvent(2, "v0.6.0", "2026-02-01T00:00:00Z")] });
    expect((await c.check()).latest_tag).toBe("v0.5.0");
    expect(await c.check(true)).toMatchObject({ cached: false, latest_tag: "v0.6.0" });
  });

  test("a failure is cached for 60 s, then retried", async () => {
    feed.set("/flaky/events", { status: 503, body: "" });
    const { c, clock } = checker("/flaky/events");
    expect((await c.check()).check_error).toBe("feed returned HTTP 503");
    feed.set("/flaky/events", { body: [releaseEvent(1, "v0.7.0", "2026-01-01T00:00:00Z")] });
    clock.t += FAILURE_TTL_MS - 1;
    expect(await c.check()).toMatchObject({ cached: true, check_error: "feed returned HTTP 503" });
    clock.t += 1;
    const ok = await c.check();
    expect(ok).toMatchObject({ cached: false, latest_tag: "v0.7.0" });
    expect(ok.check_error).toBeUndefined();
  });

  test("after a failure, a 304 still revalidates the last good result", async () => {
    feed.set("/reval/events", { etag: '"r1"', body: [releaseEvent(1, "v0.8.0", "2026-01-01T00:00:00Z")] });
    const { c } = checker("/reval/events");
    await c.check();
    feed.set("/reval/events", { status: 500, body: "" });
    expect((await c.check(true)).check_error).toBe("feed returned HTTP 500");
    feed.set("/reval/events", { etag: '"r1"', body: [] });
    const r = await c.check(true);
    expect(r).toMatchObject({ latest_tag: "v0.8.0", cached: false });
    expect(feed.hitsOf("/reval/events").at(-1)!.headers["if-none-match"]).toBe('"r1"');
  });

  test("a changed feed URL is not answered from the old feed's cache", async () => {
    feed.set("/one/events", { body: [releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z")] });
    feed.set("/two/events", { body: [releaseEvent(1, "v2.0.0", "2026-01-01T00:00:00Z")] });
    let path = "/one/events";
    const { c } = checker("", { feedUrl: () => `${feed.origin}${path}` });
    expect((await c.check()).latest_tag).toBe("v1.0.0");
    path = "/two/events";
    expect(await c.check()).toMatchObject({ latest_tag: "v2.0.0", cached: false });
  });

  test("concurrent checks share one feed read", async () => {
    feed.set("/shared/events", { delayMs: 30, body: [releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z")] });
    const { c } = checker("/shared/events");
    const results = await Promise.all([c.check(), c.check(), c.releases(5)]);
    expect(results[0].latest_tag).toBe("v1.0.0");
    expect(feed.hitsOf("/shared/events")).toHaveLength(1);
  });

  test("paging stops once 10 qualifying releases are known", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => releaseEvent(i, `v1.${i}.0`, `2026-01-${String(i + 10)}T00:00:00Z`));
    feed.set("/ten/events", { body: ten, headers: { Link: '</ten/events?page=2>; rel="next"' } });
    feed.set("/ten/events?page=2", { body: [] });
    expect((await checker("/ten/events").c.check()).latest_tag).toBe("v1.9.0");
    expect(feed.hitsOf("/ten/events?page=2")).toHaveLength(0);
  });
});

describe("GET /admin/version/releases result (D15.10)", () => {
  test("newest first, drafts never, prereleases only when asked, limit applied", async () => {
    const { c } = checker("/main/events");
    const r = await c.releases(10, false);
    expect(r.success).toBe(true);
    expect(r.checked_at).toMatch(ISO_MS);
    expect(r.check_error).toBeUndefined();
    expect(r.items.map((i) => i.tag)).toEqual(["v0.3.0", "v0.2.0", "v0.0.1"]);
    expect(r.items[0]).toEqual({
      tag: "v0.3.0",
      name: "Release v0.3.0",
      url: "https://host.example/owner/svc-gateway/releases/tag/v0.3.0",
      published_at: "2026-04-01T00:00:00.000Z",
      notes: "Notes for v0.3.0",
      prerelease: false,
    });
    expect((await c.releases(10, true)).items.map((i) => [i.tag, i.prerelease])).toEqual([
      ["v1.0.0-rc.1", true],
      ["v0.3.0", false],
      ["v0.2.0", false],
      ["v0.0.1", false],
    ]);
    expect((await c.releases(2, true)).items.map((i) => i.tag)).toEqual(["v1.0.0-rc.1", "v0.3.0"]);
  });

  test("shares the cache with the version check", async () => {
    feed.set("/both/events", { body: [releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z")] });
    const { c } = checker("/both/events");
    await c.check();
    await c.releases(10, true);
    expect(feed.hitsOf("/both/events")).toHaveLength(1);
  });

  test.each([
    [0, 1],
    [-5, 1],
    [500, 50],
    [Number.NaN, 10],
    [2.7, 2],
  ])("limit %p is held to %p", async (limit, expected) => {
    const many = Array.from({ length: 60 }, (_, i) => releaseEvent(i, `v0.${i}.0`, new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString()));
    feed.set("/lots/events", { body: many });
    expect((await checker("/lots/events").c.releases(limit, false)).items).toHaveLength(expected);
  });

  test("a feed failure gives no items and the check_error", async () => {
    feed.set("/down/events", { status: 500, body: "" });
    expect(await checker("/down/events", { now: () => T0 }).c.releases(10, false)).toEqual({
      success: true,
      checked_at: "2026-11-22T09:30:00.123Z",
      items: [],
      check_error: "feed returned HTTP 500",
    });
  });

  test("an unset feed gives no items and 'release feed not configured'", async () => {
    const c = new VersionChecker({ currentVersion: "0.1.0", source: "dev", feedUrl: () => undefined, feedToken: () => undefined });
    expect(await c.releases(10, true)).toMatchObject({ items: [], check_error: NOT_CONFIGURED });
  });
});

describe("injected fetch", () => {
  test("the checker reads through the fetch it was given", async () => {
    const seen: string[] = [];
    const fake = (async (input: string | URL | Request) => {
      seen.push(String(input));
      return Response.json([releaseEvent(1, "v3.0.0", "2026-01-01T00:00:00Z")]);
    }) as typeof fetch;
    const c = new VersionChecker({ currentVersion: "2.0.0", source: "build", feedUrl: () => "https://code-host.example/repos/o/r/events", feedToken: () => undefined, fetch: fake });
    expect(await c.check()).toMatchObject({ latest_tag: "v3.0.0", has_update: true });
    expect(seen).toEqual(["https://code-host.example/repos/o/r/events"]);
  });

  test("a fetch that throws becomes 'feed unreachable: <reason>'", async () => {
    const fake = (async () => {
      throw new Error("connection reset");
    }) as unknown as typeof fetch;
    const c = new VersionChecker({ currentVersion: "2.0.0", source: "build", feedUrl: () => "https://code-host.example/e", feedToken: () => undefined, fetch: fake });
    expect((await c.check()).check_error).toBe("feed unreachable: connection reset");
  });
});
