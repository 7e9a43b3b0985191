import { afterAll, describe, expect, test } from "bun:test";
import { parseEvents } from "../../src/release/events";
import { parseLinks } from "../../src/release/link";
import { compareVersions } from "../../src/release/semver";
import { VersionChecker } from "../../src/release/version-check";
import { ev, everyType, release, startFakeFeed } from "../helpers/fake-feed";

const feed = startFakeFeed();
afterAll(() => feed.stop());

function checker(path: string, opts: { now?: () => number; current?: string } = {}) {
  return new VersionChecker({ currentVersion: opts.current ?? "0.1.0", source: "build", feedUrl: () => `${feed.url}${path}`, feedToken: () => "feed-secret", now: opts.now, pageTimeoutMs: 200, totalTimeoutMs: 400 });
}

describe("event parsing (event-feed.md, D15.4)", () => {
  test("every event type parses; ids are strings; unknown types and bad payloads are kept with validation_error", () => {
    const { events, skipped } = parseEvents([...everyType(), ev(99, "SponsorshipEvent", {}), ev("100", "PushEvent", { ref: 5, head: "h", before: "b" }), { type: "X" }, "junk"]);
    expect(skipped).toBe(2);
    expect(events).toHaveLength(17);
    expect(events.slice(0, 15).every((e) => e.validation_error === undefined)).toBe(true);
    expect(events.every((e) => typeof e.id === "string")).toBe(true);
    expect(events[15]!.validation_error).toContain("SponsorshipEvent 99: unknown event type");
    expect(events[16]!.validation_error).toMatch(/PushEvent 100: payload \/ref/);
  });

  test("Link headers: quoted and unquoted rel, several rels, relative URLs", () => {
    const links = parseLinks('</events?page=2>; rel="next", <https://h.example/events?page=9>; rel=last, </a?page=3>; rel="prev first"', "https://h.example/repos/x/events");
    expect(links).toEqual({ next: "https://h.example/events?page=2", last: "https://h.example/events?page=9", prev: "https://h.example/a?page=3", first: "https://h.example/a?page=3" });
  });

  test("semantic-version precedence", () => {
    expect(compareVersions("v1.2.0", "1.10.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.0.0-alpha.2", "1.0.0-alpha.10")).toBe(-1);
    expect(compareVersions("1.0.0+build", "1.0.0")).toBe(0);
    expect(compareVersions("latest", "1.0.0")).toBeNull();
  });
});

describe("version check (D15.3–D15.9)", () => {
  test("newest published release across pages; drafts and prereleases ignored; has_update; token and user agent sent", async () => {
    feed.set("/p1/events", {
      body: [...everyType(), ev(20, "ReleaseEvent", release("v0.2.0", "2026-03-01T00:00:00Z"))],
      headers: { Link: '</p1/events?page=2>; rel="next", </p1/events?page=3>; rel="last"', ETag: '"v1"' },
    });
    feed.set("/p1/events?page=2", {
      body: [ev("21", "ReleaseEvent", release("v0.9.0", "2026-05-01T00:00:00Z", { draft: true })), ev(22, "ReleaseEvent", release("v1.0.0-rc.1", "2026-06-01T00:00:00Z", { prerelease: true })), ev(23, "ReleaseEvent", release("v0.3.0", "2026-04-01T00:00:00Z"))],
    });
    const r = await checker("/p1/events").check();
    expect(r).toMatchObject({ success: true, current_version: "0.1.0", current_tag: "v0.1.0", source: "build", latest_tag: "v0.3.0", latest_version: "0.3.0", release_url: "https://host.example/r/v0.3.0", has_update: true, cached: false, feed_configured: true });
    expect(r.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const hit = feed.hits.find((h) => h.path === "/p1/events")!;
    expect(hit.headers.get("authorization")).toBe("Bearer feed-secret");
    expect(hit.headers.get("user-agent")).toBe("svc-gateway/0.1.0");
  });

  test("cached for 10 minutes; force bypasses; a 304 reuses the cached result", async () => {
    let now = 1_000_000;
    const c = checker("/p1/events", { now: () => now });
    await c.check();
    expect((await c.check()).cached).toBe(true);
    now += 11 * 60_000;
    const again = await c.check();
    expect(again.cached).toBe(false);
    expect(again.latest_tag).toBe("v0.3.0");
    expect(feed.hits.filter((h) => h.path === "/p1/events").at(-1)!.headers.get("if-none-match")).toBe('"v1"');
  });

  test("no release in the feed: the newest tag CreateEvent is the fallback", async () => {
    feed.set("/tags/events", { body: [ev(1, "CreateEvent", { ref: "v0.0.5", ref_type: "tag" }, "2026-02-01T00:00:00Z"), ev(2, "CreateEvent", { ref: "v0.0.7", ref_type: "tag" }, "2026-02-03T00:00:00Z")] });
    const r = await checker("/tags/events").check();
    expect(r).toMatchObject({ latest_tag: "v0.0.7", release_url: null, published_at: "2026-02-03T00:00:00Z", has_update: false });
  });

  test.each([
    ["a missing feed", "/missing/events", undefined, "feed returned HTTP 404"],
    ["a 500", "/err/events", { status: 500, body: "oops" }, "feed returned HTTP 500"],
    ["malformed JSON", "/bad/events", { body: "{not json" }, "not JSON"],
    ["a non-array body", "/obj/events", { body: { message: "hi" } }, "not an array"],
    ["a slow feed", "/slow/events", { delayMs: 1000, body: [] }, "feed unreachable"],
  ])("%s → 200-style result with check_error", async (_n, path, answer, error) => {
    if (answer) feed.set(path, answer);
    const r = await checker(path).check();
    expect(r.success).toBe(true);
    expect((r as { check_error?: string }).check_error).toContain(error);
    expect(r.has_update).toBe(false);
    expect(r.current_version).toBe("0.1.0");
  });

  test("an unset feed is reported, never fetched", async () => {
    const c = new VersionChecker({ currentVersion: "0.1.0", source: "dev", feedUrl: () => undefined, feedToken: () => undefined });
    expect(await c.check()).toMatchObject({ check_error: "release feed not configured", feed_configured: false, latest_tag: null });
  });

  test("releases list: newest first, prereleases only when asked, notes cut", async () => {
    const c = checker("/p1/events");
    const r = await c.releases(10, false, true);
    expect(r.items.map((i) => i.tag)).toEqual(["v0.3.0", "v0.2.0"]);
    const withPre = await c.releases(10, true);
    expect(withPre.items.map((i) => i.tag)).toEqual(["v1.0.0-rc.1", "v0.3.0", "v0.2.0"]);
  });
});
