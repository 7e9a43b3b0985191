// Payload schemas of the 16 event types of event-feed.md, plus the release object of D15.5.
//
// Reading of the spec tables: a key listed in a table is required unless the table calls it optional; a value
// the table says may be null accepts null. Nested resources (comment, issue, user, pull request, …) are only
// named by the spec, so any object passes and every object allows extra keys: the feed grows fields over
// time and an unknown field must not turn a good event into a failing one. `action` stays a plain string for
// the same reason ("currently only `started`" says new values can appear).
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";

/** An object with the given keys; unknown keys allowed. */
export const LooseObject = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: true });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A nested resource whose fields the spec does not show. */
export const Resource = LooseObject({});

const Action = Type.String();

/** D15.5: the release fields this project relies on; everything else in the object is ignored. */
export const ReleaseSchema = LooseObject({
  tag_name: Type.String(),
  name: Type.Optional(Nullable(Type.String())),
  html_url: Type.Optional(Type.String()),
  published_at: Type.Optional(Nullable(Type.String())),
  draft: Type.Optional(Type.Boolean()),
  prerelease: Type.Optional(Type.Boolean()),
  body: Type.Optional(Nullable(Type.String())),
});

const GollumPage = LooseObject({
  page_name: Type.String(),
  title: Type.String(),
  summary: Nullable(Type.String()),
  action: Action,
  sha: Type.String(),
  html_url: Type.String(),
});

// Issue and pull-request events share the optional assignment/label keys.
const AssignmentKeys = {
  assignee: Type.Optional(Nullable(Resource)),
  assignees: Type.Optional(Type.Array(Resource)),
  label: Type.Optional(Resource),
  labels: Type.Optional(Type.Array(Resource)),
};

export const PAYLOAD_SCHEMAS = {
  CommitCommentEvent: LooseObject({ action: Action, comment: Resource }),
  CreateEvent: LooseObject({
    // null when ref_type is "repository" (and then there is no fully formed ref either)
    ref: Nullable(Type.String()),
    ref_type: Type.String(),
    full_ref: Nullable(Type.String()),
    master_branch: Type.String(),
    // a repository without a description reports null
    description: Nullable(Type.String()),
    pusher_type: Type.String(),
  }),
  DeleteEvent: LooseObject({ ref: Type.String(), ref_type: Type.String(), full_ref: Type.String(), pusher_type: Type.String() }),
  DiscussionEvent: LooseObject({ action: Action, discussion: Resource }),
  ForkEvent: LooseObject({ action: Action, forkee: Resource }),
  GollumEvent: LooseObject({ pages: Type.Array(GollumPage) }),
  IssueCommentEvent: LooseObject({ action: Action, issue: Resource, comment: Resource }),
  IssuesEvent: LooseObject({ action: Action, issue: Resource, ...AssignmentKeys }),
  MemberEvent: LooseObject({ action: Action, member: Resource }),
  PublicEvent: Resource,
  PullRequestEvent: LooseObject({ action: Action, number: Type.Integer(), pull_request: Resource, ...AssignmentKeys }),
  PullRequestReviewEvent: LooseObject({ action: Action, pull_request: Resource, review: Resource }),
  PullRequestReviewCommentEvent: LooseObject({ action: Action, pull_request: Resource, comment: Resource }),
  PushEvent: LooseObject({
    repository_id: Type.Integer(),
    push_id: Type.Integer(),
    ref: Type.String(),
    head: Type.String(),
    before: Type.String(),
  }),
  ReleaseEvent: LooseObject({ action: Action, release: ReleaseSchema }),
  WatchEvent: LooseObject({ action: Action }),
} as const;

export type EventType = keyof typeof PAYLOAD_SCHEMAS;
export type PayloadOf<K extends EventType> = Static<(typeof PAYLOAD_SCHEMAS)[K]>;

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(PAYLOAD_SCHEMAS, type);
}
