import { describe, expect, test } from "bun:test";
import { parseEvents, type FeedEvent } from "../../src/release/events";
import { PAYLOAD_SCHEMAS } from "../../src/release/event-payloads";
import { ev, everyType, org, releasePayload } from "../helpers/fake-feed";

const EVENT_TYPES = Object.keys(PAYLOAD_SCHEMAS);

const only = (events: FeedEvent[]) => {
  expect(events).toHaveLength(1);
  return events[0]!;
};

describe("parseEvents: valid events (event-feed.md, D15.4)", () => {
  test("the fixture covers all 16 event types of the spec", () => {
    expect(EVENT_TYPES).toHaveLength(16);
    expect(new Set(everyType().map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
  });

  test("every event type passes its payload parser with no validation_error", () => {
    const { events, skipped } = parseEvents(everyType());
    expect(skipped).toBe(0);
    expect(events.map((e) => e.type)).toEqual(everyType().map((e) => e.type as string));
    for (const e of events) expect(e.validation_error).toBeUndefined();
  });

  test("string and integer ids are both kept as strings", () => {
    const { events } = parseEvents([ev(42, "WatchEvent", { action: "started" }), ev("43", "WatchEvent", { action: "started" })]);
    expect(events.map((e) => e.id)).toEqual(["42", "43"]);
  });

  test("typed events keep actor, repo, public and the optional org", () => {
    const e = only(parseEvents([ev(9, "MemberEvent", { action: "added", member: { id: 1 } }, "2026-02-02T00:00:00Z", { org })]).events);
    if (e.validation_error !== undefined) throw new Error(e.validation_error);
    expect(e.org).toEqual(org);
    expect(e.actor.login).toBe("dev");
    expect(e.repo.name).toBe("owner/svc-gateway");
    expect(e.public).toBe(true);
    expect(e.created_at).toBe("2026-02-02T00:00:00Z");
  });

  test("a typed ReleaseEvent exposes its release object", () => {
    const e = only(parseEvents([ev(1, "ReleaseEvent", releasePayload("v1.2.3", "2026-01-01T00:00:00Z"))]).events);
    if (e.validation_error !== undefined || e.type !== "ReleaseEvent") throw new Error("expected a typed ReleaseEvent");
    expect(e.payload.release.tag_name).toBe("v1.2.3");
  });

  test("unknown fields are allowed at every level", () => {
    const e = only(parseEvents([ev(1, "PushEvent", { repository_id: 1, push_id: 2, ref: "r", head: "h", before: "b", size: 3 }, undefined, { extra: true })]).events);
    expect(e.validation_error).toBeUndefined();
  });

  test("release fields that may be null or absent (D15.5) still parse", () => {
    const payload = { action: "published", release: { tag_name: "v1", name: null, published_at: null, body: null } };
    expect(only(parseEvents([ev(1, "ReleaseEvent", payload)]).events).validation_error).toBeUndefined();
  });

  test("a CreateEvent for a repository has a null ref", () => {
    const p = { ref: null, ref_type: "repository", full_ref: null, master_branch: "main", description: null, pusher_type: "user" };
    expect(only(parseEvents([ev(1, "CreateEvent", p)]).events).validation_error).toBeUndefined();
  });
});

describe("parseEvents: skipped elements", () => {
  test("elements without a string type or an object payload are skipped and counted", () => {
    const bad = [
      "junk",
      null,
      7,
      [],
      { payload: {} },
      { type: 5, payload: {} },
      { type: "PushEvent" },
      { type: "PushEvent", payload: null },
      { type: "PushEvent", payload: [] },
      { type: "PushEvent", payload: "x" },
    ];
    const { events, skipped } = parseEvents([...bad, ev(1, "WatchEvent", { action: "started" })]);
    expect(skipped).toBe(bad.length);
    expect(events.map((e) => e.id)).toEqual(["1"]);
  });

  test.each([null, undefined, {}, "[]", 3])("a non-array input %p gives nothing and does not throw", (input) => {
    expect(parseEvents(input)).toEqual({ events: [], skipped: 0 });
  });

  test("an element whose properties throw when read is skipped, not thrown", () => {
    const hostile = Object.defineProperty({}, "type", { get: () => { throw new Error("boom"); }, enumerable: true });
    expect(parseEvents([hostile])).toEqual({ events: [], skipped: 1 });
  });
});

describe("parseEvents: generic events with validation_error", () => {
  test("an unknown type is kept as {type, id, created_at, payload} naming the event", () => {
    const e = only(parseEvents([ev(99, "SponsorshipEvent", { action: "created" }, "2026-03-01T00:00:00Z")]).events);
    expect(e).toEqual({
      id: "99",
      type: "SponsorshipEvent",
      created_at: "2026-03-01T00:00:00Z",
      payload: { action: "created" },
      validation_error: "SponsorshipEvent 99: /type: unknown event type",
    });
  });

  test.each([
    ["PushEvent", { repository_id: 1, push_id: 2, ref: 5, head: "h", before: "b" }, "/payload/ref"],
    ["PushEvent", { ref: "r", head: "h", before: "b" }, "/payload/repository_id"],
    ["PullRequestEvent", { action: "opened", number: "12", pull_request: {} }, "/payload/number"],
    ["GollumEvent", { pages: [{ page_name: "a", title: "a", summary: null, action: "edited", html_url: "u" }] }, "/payload/pages/0/sha"],
    ["ReleaseEvent", { action: "published", release: { name: "no tag" } }, "/payload/release/tag_name"],
    ["ReleaseEvent", { action: "published", release: { tag_name: "v1", draft: "no" } }, "/payload/release/draft"],
    ["CreateEvent", { ref: "v1", ref_type: "tag" }, "/payload/full_ref"],
    ["IssuesEvent", { action: "opened" }, "/payload/issue"],
    ["WatchEvent", {}, "/payload/action"],
    ["ForkEvent", { action: "forked", forkee: "someone/repo" }, "/payload/forkee"],
  ])("a %s payload failing its parser names the field (%#)", (type, payload, path) => {
    const e = only(parseEvents([ev("77", type, payload)]).events);
    expect(e.validation_error).toStartWith(`${type} 77: ${path}: `);
    expect(e.payload).toEqual(payload as Record<string, unknown>);
    expect(e.id).toBe("77");
  });

  test("common-property failures name the event field; a missing or fractional id reads (no id)", () => {
    const noActor: Record<string, unknown> = ev(5, "WatchEvent", { action: "started" });
    delete noActor.actor;
    expect(only(parseEvents([noActor]).events).validation_error).toStartWith("WatchEvent 5: /actor: ");
    const badId = ev(1.5, "WatchEvent", { action: "started" });
    const e = only(parseEvents([badId]).events);
    expect(e.id).toBeNull();
    expect(e.validation_error).toStartWith("WatchEvent (no id): /id: ");
    const badOrg = ev(6, "WatchEvent", { action: "started" }, undefined, { org: { id: "x", login: "o" } });
    expect(only(parseEvents([badOrg]).events).validation_error).toStartWith("WatchEvent 6: /org");
  });

  test("a generic event without created_at carries null", () => {
    const e = only(parseEvents([{ type: "Mystery", payload: {} }]).events);
    expect(e).toMatchObject({ id: null, created_at: null, type: "Mystery" });
    expect(e.validation_error).toStartWith("Mystery (no id): ");
  });
});
