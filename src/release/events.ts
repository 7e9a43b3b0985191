// The repository activity event feed (event-feed.md, D15.4): TypeBox schemas for the common event object and
// every payload type. Parsing never throws: elements without a string type or an object payload are skipped
// and counted; a payload that fails its schema, or an unknown type, is kept as a generic event with
// `validation_error` naming the event and the field.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

const Loose = Type.Object({}, { additionalProperties: true });
const Str = Type.String();
const OptStr = Type.Optional(Type.Union([Type.String(), Type.Null()]));

export const ActorSchema = Type.Object(
  { id: Type.Integer(), login: Str, display_login: Type.Optional(Str), gravatar_id: Type.Optional(Str), url: Type.Optional(Str), avatar_url: Type.Optional(Str) },
  { additionalProperties: true },
);
export const RepoSchema = Type.Object({ id: Type.Integer(), name: Str, url: Type.Optional(Str) }, { additionalProperties: true });
export const OrgSchema = Type.Object(
  { id: Type.Integer(), login: Str, gravatar_id: Type.Optional(Str), url: Type.Optional(Str), avatar_url: Type.Optional(Str) },
  { additionalProperties: true },
);

export const ReleaseSchema = Type.Object(
  {
    tag_name: Str,
    name: OptStr,
    html_url: Type.Optional(Str),
    published_at: OptStr,
    draft: Type.Optional(Type.Boolean()),
    prerelease: Type.Optional(Type.Boolean()),
    body: OptStr,
  },
  { additionalProperties: true },
);

const obj = (props: Record<string, TSchema>) => Type.Object(props, { additionalProperties: true });

/** One payload schema per event type of event-feed.md. */
export const PAYLOAD_SCHEMAS: Record<string, TSchema> = {
  CommitCommentEvent: obj({ action: Str, comment: Loose }),
  CreateEvent: obj({ ref: Type.Union([Str, Type.Null()]), ref_type: Str, full_ref: Type.Optional(Str), master_branch: Type.Optional(Str), description: OptStr, pusher_type: Type.Optional(Str) }),
  DeleteEvent: obj({ ref: Str, ref_type: Str, full_ref: Type.Optional(Str), pusher_type: Type.Optional(Str) }),
  DiscussionEvent: obj({ action: Str, discussion: Loose }),
  ForkEvent: obj({ action: Type.Optional(Str), forkee: Loose }),
  GollumEvent: obj({
    pages: Type.Array(obj({ page_name: Str, title: Str, summary: OptStr, action: Str, sha: Str, html_url: Str })),
  }),
  IssueCommentEvent: obj({ action: Str, issue: Loose, comment: Loose }),
  IssuesEvent: obj({ action: Str, issue: Loose, assignee: Type.Optional(Type.Union([Loose, Type.Null()])), assignees: Type.Optional(Type.Array(Loose)), label: Type.Optional(Loose), labels: Type.Optional(Type.Array(Loose)) }),
  MemberEvent: obj({ action: Str, member: Loose }),
  PublicEvent: Loose,
  PullRequestEvent: obj({ action: Str, number: Type.Integer(), pull_request: Loose, assignee: Type.Optional(Type.Union([Loose, Type.Null()])), assignees: Type.Optional(Type.Array(Loose)), label: Type.Optional(Loose), labels: Type.Optional(Type.Array(Loose)) }),
  PullRequestReviewEvent: obj({ action: Str, pull_request: Loose, review: Loose }),
  PullRequestReviewCommentEvent: obj({ action: Str, pull_request: Loose, comment: Loose }),
  PushEvent: obj({ repository_id: Type.Optional(Type.Integer()), push_id: Type.Optional(Type.Integer()), ref: Str, head: Str, before: Str }),
  ReleaseEvent: obj({ action: Str, release: ReleaseSchema }),
  WatchEvent: obj({ action: Str }),
};

export const EventSchema = Type.Object(
  {
    id: Type.Union([Type.String(), Type.Integer()]),
    type: Str,
    actor: ActorSchema,
    repo: RepoSchema,
    payload: Loose,
    public: Type.Boolean(),
    created_at: Str,
    org: Type.Optional(OrgSchema),
  },
  { additionalProperties: true },
);

export type Release = Static<typeof ReleaseSchema>;

export interface FeedEvent {
  id: string;
  type: string;
  created_at: string;
  payload: Record<string, any>;
  /** Set when the event or its payload did not match its schema (or the type is unknown). */
  validation_error?: string;
}

function firstError(schema: TSchema, value: unknown): string | null {
  const e = Value.Errors(schema, value).First();
  if (!e) return null;
  return `${e.path || "/"}: ${e.message}`;
}

export function parseEvents(json: unknown): { events: FeedEvent[]; skipped: number } {
  const events: FeedEvent[] = [];
  let skipped = 0;
  if (!Array.isArray(json)) return { events, skipped };
  for (const el of json) {
    if (!el || typeof el !== "object" || typeof (el as any).type !== "string" || !(el as any).payload || typeof (el as any).payload !== "object" || Array.isArray((el as any).payload)) {
      skipped++;
      continue;
    }
    const e = el as Record<string, any>;
    const ev: FeedEvent = { id: String(e.id ?? ""), type: e.type, created_at: typeof e.created_at === "string" ? e.created_at : "", payload: e.payload };
    const common = firstError(EventSchema, e);
    const schema = PAYLOAD_SCHEMAS[e.type];
    const payloadErr = schema ? firstError(schema, e.payload) : null;
    if (common) ev.validation_error = `${e.type} ${ev.id}: event ${common}`;
    else if (!schema) ev.validation_error = `${e.type} ${ev.id}: unknown event type`;
    else if (payloadErr) ev.validation_error = `${e.type} ${ev.id}: payload ${payloadErr}`;
    events.push(ev);
  }
  return { events, skipped };
}
