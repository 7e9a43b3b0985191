import { afterAll, describe, expect, test } from "bun:test";
import { fetchFeed, type FeedFetchOptions } from "../../src/release/feed-client";
import { everyType, releaseEvent, startFakeFeed } from "../helpers/fake-feed";

const feed = startFakeFeed();
const other = startFakeFeed();
afterAll(() => {
  feed.stop();
  other.stop();
});

const read = (path: string, o: Partial<FeedFetchOptions> = {}) =>
  fetchFeed({ url: `${feed.origin}${path}`, userAgent: "svc-gateway/1.2.3", pageTimeoutMs: 2_000, totalTimeoutMs: 4_000, ...o });

const errorOf = async (p: Promise<unknown>) => {
  const r = (await p) as { status: string; error?: string };
  expect(r.status).toBe("error");
  return r.error!;
};

describe("feed client requests (D15.3)", () => {
  test("sends Accept, User-Agent and the bearer token; If-None-Match only when an ETag is cached", async () => {
    feed.set("/h/events", { body: [], etag: '"e1"' });
    await read("/h/events", { token: "tok" });
    await read("/h/events", { etag: '"old"' });
    const [a, b] = feed.hitsOf("/h/events");
    expect(a!.headers).toMatchObject({ accept: "application/json", "user-agent": "svc-gateway/1.2.3", authorization: "Bearer tok" });
    expect(a!.headers["if-none-match"]).toBeUndefined();
    expect(b!.headers.authorization).toBeUndefined();
    expect(b!.headers["if-none-match"]).toBe('"old"');
  });

  test("follows rel=next through relative and absolute Link URLs and returns the first page's ETag", async () => {
    feed.set("/pg/events", { body: everyType().slice(0, 8), etag: '"p1"', headers: { Link: '<?page=2>; rel="next", <?page=3>; rel="last"' } });
    feed.set("/pg/events?page=2", { body: everyType().slice(8), headers: { Link: `<${feed.origin}/pg/events?page=3>; rel=next` } });
    feed.set("/pg/events?page=3", { body: ["junk", { type: "X" }], headers: { Link: '</pg/events?page=1>; rel="first"' } });
    const r = await read("/pg/events");
    if (r.status !== "ok") throw new Error(JSON.stringify(r));
    expect(r.pages).toBe(3);
    expect(r.events).toHaveLength(16);
    expect(r.skipped).toBe(2);
    expect(r.etag).toBe('"p1"');
  });

  test("reads at most 5 pages", async () => {
    for (let i = 1; i <= 7; i++) feed.set(`/many/events?page=${i}`, { body: [], headers: { Link: `</many/events?page=${i + 1}>; rel="next"` } });
    const r = await read("/many/events?page=1");
    expect(r).toMatchObject({ status: "ok", pages: 5 });
    expect(feed.hits.filter((h) => h.path.startsWith("/many/")).map((h) => h.path).at(-1)).toBe("/many/events?page=5");
  });

  test("a next link back to a page already read ends the walk", async () => {
    feed.set("/loop/events", { body: [], headers: { Link: '</loop/events>; rel="next"' } });
    expect(await read("/loop/events")).toMatchObject({ status: "ok", pages: 1 });
  });

  test("stops following next once the caller has enough", async () => {
    feed.set("/enough/events", { body: [releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z")], headers: { Link: '</enough/events?page=2>; rel="next"' } });
    const r = await read("/enough/events", { enough: (events) => events.length >= 1 });
    expect(r).toMatchObject({ status: "ok", pages: 1 });
    expect(feed.hitsOf("/enough/events?page=2")).toHaveLength(0);
  });

  test("the token is not sent to another origin named by a Link header", async () => {
    feed.set("/x/events", { body: [], headers: { Link: `<${other.origin}/x/events?page=2>; rel="next"` } });
    other.set("/x/events", { body: [] });
    await read("/x/events", { token: "tok" });
    expect(feed.hitsOf("/x/events")[0]!.headers.authorization).toBe("Bearer tok");
    expect(other.hitsOf("/x/events?page=2")[0]!.headers.authorization).toBeUndefined();
  });
});

describe("feed client answers (D15.3)", () => {
  test("a 304 on the first page is not_modified", async () => {
    feed.set("/etag/events", { body: [], etag: '"same"' });
    expect(await read("/etag/events", { etag: '"same"' })).toEqual({ status: "not_modified" });
  });

  test("a 304 on a later page is an error", async () => {
    feed.set("/late304/events", { body: [], headers: { Link: '</late304/events?page=2>; rel="next"' } });
    feed.set("/late304/events?page=2", { status: 304, body: "" });
    expect(await errorOf(read("/late304/events"))).toBe("feed returned HTTP 304");
  });

  test.each([
    ["a missing feed", "/nope/events", null, "feed returned HTTP 404"],
    ["a 500", "/e500/events", { status: 500, body: "oops" }, "feed returned HTTP 500"],
    ["a 403", "/e403/events", { status: 403, body: { message: "rate limited" } }, "feed returned HTTP 403"],
    ["a 201", "/e201/events", { status: 201, body: [] }, "feed returned HTTP 201"],
    ["malformed JSON", "/badjson/events", { body: '[{"id": 1,' }, "feed returned a body that is not JSON"],
    ["an empty body", "/empty/events", { body: "" }, "feed returned a body that is not JSON"],
    ["a non-array body", "/obj/events", { body: { message: "hi" } }, "feed returned JSON that is not an array"],
  ])("%s → %p", async (_name, path, answer, message) => {
    if (answer) feed.set(path, answer);
    expect(await errorOf(read(path))).toBe(message);
  });

  test("an error on a later page fails the read", async () => {
    feed.set("/p2fail/events", { body: [], headers: { Link: '</p2fail/events?page=2>; rel="next"' } });
    feed.set("/p2fail/events?page=2", { status: 502, body: "" });
    expect(await errorOf(read("/p2fail/events"))).toBe("feed returned HTTP 502");
  });

  test("a closed port is 'feed unreachable'", async () => {
    const gone = startFakeFeed();
    const url = `${gone.origin}/events`;
    gone.stop();
    expect(await errorOf(fetchFeed({ url, userAgent: "ua" }))).toStartWith("feed unreachable: ");
  });

  test("an invalid or non-http feed URL is reported without a request", async () => {
    expect(await errorOf(fetchFeed({ url: "not a url", userAgent: "ua" }))).toBe("feed URL is not a valid http(s) URL");
    expect(await errorOf(fetchFeed({ url: "file:///etc/passwd", userAgent: "ua" }))).toBe("feed URL is not a valid http(s) URL");
  });

  test("a page slower than the page timeout is 'feed unreachable: page timed out'", async () => {
    feed.set("/slow/events", { delayMs: 3_000, body: [] });
    expect(await errorOf(read("/slow/events", { pageTimeoutMs: 50 }))).toBe("feed unreachable: page timed out after 50 ms");
  });

  test("a body that stalls after the headers also hits the page timeout", async () => {
    feed.set("/stall/events", { stallBodyMs: 3_000, body: everyType() });
    expect(await errorOf(read("/stall/events", { pageTimeoutMs: 100 }))).toBe("feed unreachable: page timed out after 100 ms");
  });

  test("pages that are each fast enough but too slow together hit the overall timeout", async () => {
    for (let i = 1; i <= 5; i++) feed.set(`/sum/events?page=${i}`, { delayMs: 120, body: [], headers: { Link: `</sum/events?page=${i + 1}>; rel="next"` } });
    expect(await errorOf(read("/sum/events?page=1", { pageTimeoutMs: 3_000, totalTimeoutMs: 300 }))).toBe("feed unreachable: timed out after 300 ms in all");
  });
});
