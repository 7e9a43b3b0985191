import { describe, expect, test } from "bun:test";
import { parseEvents } from "../../src/release/events";
import { collectReleases, cutNotes, latestRelease, NOTES_MAX_CHARS, qualifyingCount } from "../../src/release/release-list";
import { ev, everyType, releaseEvent, releasePayload, tagEvent } from "../helpers/fake-feed";

const collect = (raw: unknown[]) => collectReleases(parseEvents(raw).events);

describe("releases from feed events (D15.5, D15.6, D15.10)", () => {
  test("published releases newest first, drafts dropped, prereleases flagged, other actions ignored", () => {
    const r = collect([
      releaseEvent(1, "v0.2.0", "2026-03-01T00:00:00Z"),
      releaseEvent(2, "v0.9.0", "2026-05-01T00:00:00Z", { draft: true }),
      releaseEvent(3, "v1.0.0-rc.1", "2026-06-01T00:00:00Z", { prerelease: true }),
      releaseEvent(4, "v0.3.0", "2026-04-01T00:00:00Z"),
      releaseEvent(5, "v0.8.0", "2026-07-01T00:00:00Z", { action: "edited" }),
      ...everyType(),
    ]);
    expect(r.releases.map((x) => [x.tag, x.prerelease])).toEqual([
      ["v1.0.0-rc.1", true],
      ["v0.3.0", false],
      ["v0.2.0", false],
      ["v0.0.1", false],
    ]);
    expect(latestRelease(r)?.tag).toBe("v0.3.0");
  });

  test("an item carries tag, name, url, published_at (ISO with ms), notes and prerelease", () => {
    const [item] = collect([releaseEvent(1, "v2.0.0", "2026-03-01T10:00:00Z")]).releases;
    expect(item).toEqual({
      tag: "v2.0.0",
      name: "Release v2.0.0",
      url: "https://host.example/owner/svc-gateway/releases/tag/v2.0.0",
      published_at: "2026-03-01T10:00:00.000Z",
      notes: "Notes for v2.0.0",
      prerelease: false,
    });
  });

  test("order follows the instant, not the text, of published_at", () => {
    // 2026-03-01T01:00:00+02:00 is 23:00 the previous day in UTC: older than the other one
    const r = collect([releaseEvent(1, "v1.0.0", "2026-03-01T01:00:00+02:00"), releaseEvent(2, "v1.1.0", "2026-02-28T23:30:00Z")]);
    expect(r.releases.map((x) => x.tag)).toEqual(["v1.1.0", "v1.0.0"]);
    expect(r.releases[1]!.published_at).toBe("2026-02-28T23:00:00.000Z");
  });

  test("a release without published_at is dated by the event's created_at", () => {
    const e = ev(1, "ReleaseEvent", releasePayload("v3.0.0", null), "2026-08-08T08:08:08Z");
    const r = collect([e, releaseEvent(2, "v2.9.0", "2026-08-01T00:00:00Z")]);
    expect(r.releases.map((x) => [x.tag, x.published_at])).toEqual([
      ["v3.0.0", "2026-08-08T08:08:08.000Z"],
      ["v2.9.0", "2026-08-01T00:00:00.000Z"],
    ]);
  });

  test("the same tag announced twice is listed once, at its newest date", () => {
    const r = collect([releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z"), releaseEvent(2, "v1.0.0", "2026-02-01T00:00:00Z")]);
    expect(r.releases.map((x) => x.published_at)).toEqual(["2026-02-01T00:00:00.000Z"]);
  });

  test("notes are cut at 20 000 characters, never inside a surrogate pair; null body gives null notes", () => {
    const long = "x".repeat(NOTES_MAX_CHARS + 500);
    const r = collect([releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z", { body: long }), releaseEvent(2, "v0.9.0", "2025-01-01T00:00:00Z", { body: null })]);
    expect(r.releases[0]!.notes).toHaveLength(NOTES_MAX_CHARS);
    expect(r.releases[1]!.notes).toBeNull();
    const emoji = "x".repeat(NOTES_MAX_CHARS - 1) + "😀";
    expect(cutNotes(emoji)).toBe("x".repeat(NOTES_MAX_CHARS - 1));
  });

  test("a release event whose actor drifted still counts; one without tag_name does not", () => {
    const drifted: Record<string, unknown> = releaseEvent(1, "v1.0.0", "2026-01-01T00:00:00Z");
    delete drifted.actor;
    const noTag = ev(2, "ReleaseEvent", { action: "published", release: { name: "x" } }, "2026-02-01T00:00:00Z");
    const r = collect([drifted, noTag]);
    expect(r.releases.map((x) => x.tag)).toEqual(["v1.0.0"]);
  });

  test("with no release the newest tag CreateEvent is the fallback; branches and prerelease tags are not", () => {
    const r = collect([
      tagEvent(1, "v0.0.5", "2026-02-01T00:00:00Z"),
      tagEvent(2, "v0.0.7", "2026-02-03T00:00:00Z"),
      tagEvent(3, "v0.1.0-beta.1", "2026-02-05T00:00:00Z"),
      releaseEvent(4, "v0.1.0-beta.1", "2026-02-05T00:00:00Z", { prerelease: true }),
      ev(5, "CreateEvent", { ref: "zzz", ref_type: "branch", full_ref: "refs/heads/zzz", master_branch: "main", description: null, pusher_type: "user" }, "2026-03-01T00:00:00Z"),
    ]);
    expect(r.tagFallback).toEqual({ tag: "v0.0.7", name: null, url: null, published_at: "2026-02-03T00:00:00.000Z", notes: null, prerelease: false });
    expect(latestRelease(r)?.tag).toBe("v0.0.7");
  });

  test("a published release beats a newer tag", () => {
    const r = collect([tagEvent(1, "v9.9.9", "2026-09-09T00:00:00Z"), releaseEvent(2, "v1.0.0", "2026-01-01T00:00:00Z")]);
    expect(latestRelease(r)?.tag).toBe("v1.0.0");
  });

  test("nothing release-like gives no latest release", () => {
    expect(latestRelease(collect(everyType().filter((e) => e.type !== "ReleaseEvent")))).toBeNull();
  });

  test("qualifyingCount counts published non-draft non-prerelease releases", () => {
    const events = parseEvents([
      releaseEvent(1, "v1", "2026-01-01T00:00:00Z"),
      releaseEvent(2, "v2", "2026-01-02T00:00:00Z", { prerelease: true }),
      releaseEvent(3, "v3", "2026-01-03T00:00:00Z", { draft: true }),
      releaseEvent(4, "v4", "2026-01-04T00:00:00Z"),
    ]).events;
    expect(qualifyingCount(events)).toBe(2);
  });
});
