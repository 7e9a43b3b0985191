// The repository activity event feed (event-feed.md, D15.4). The common event object is checked here and the
// payload against its type's schema (event-payloads.ts). Parsing never throws:
//  - an element without a string `type` or an object `payload` is skipped and counted;
//  - an unknown type, or an event whose common properties or payload fail, is kept as a generic event with a
//    `validation_error` naming the event (type and id) and the first failing field as a JSON pointer.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isEventType, LooseObject, PAYLOAD_SCHEMAS, Resource, type EventType, type PayloadOf } from "./event-payloads";

export { PAYLOAD_SCHEMAS, type EventType, type PayloadOf } from "./event-payloads";

export const ActorSchema = LooseObject({
  id: Type.Integer(),
  login: Type.String(),
  display_login: Type.String(),
  gravatar_id: Type.String(),
  url: Type.String(),
  avatar_url: Type.String(),
});
export const RepoSchema = LooseObject({ id: Type.Integer(), name: Type.String(), url: Type.String() });
export const OrgSchema = LooseObject({
  id: Type.Integer(),
  login: Type.String(),
  gravatar_id: Type.String(),
  url: Type.String(),
  avatar_url: Type.String(),
});

/** Common properties. `id` is documented as an integer but sampled as a string, so both are accepted. */
export const EventSchema = LooseObject({
  id: Type.Union([Type.String(), Type.Integer()]),
  type: Type.String(),
  actor: ActorSchema,
  repo: RepoSchema,
  payload: Resource,
  public: Type.Boolean(),
  created_at: Type.String(),
  org: Type.Optional(OrgSchema),
});

export type Actor = Static<typeof ActorSchema>;
export type Repo = Static<typeof RepoSchema>;
export type Org = Static<typeof OrgSchema>;

/** An event whose common properties and payload passed; `payload` is typed by `type`. */
export type TypedEvent<K extends EventType> = {
  id: string;
  type: K;
  actor: Actor;
  repo: Repo;
  payload: PayloadOf<K>;
  public: boolean;
  created_at: string;
  org?: Org;
  validation_error?: undefined;
};
export type KnownEvent = { [K in EventType]: TypedEvent<K> }[EventType];

/** D15.4's generic event: kept so a reader sees it, but nothing in it was verified beyond type and payload. */
export interface GenericEvent {
  id: string | null;
  type: string;
  created_at: string | null;
  payload: Record<string, unknown>;
  validation_error: string;
}

/** Narrow with `e.validation_error === undefined`, then with `e.type`. */
export type FeedEvent = KnownEvent | GenericEvent;

export interface ParsedEvents {
  events: FeedEvent[];
  skipped: number;
}

function idOf(e: Record<string, unknown>): string | null {
  if (typeof e.id === "string") return e.id;
  if (typeof e.id === "number" && Number.isInteger(e.id)) return String(e.id);
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** "/path: message" of the first mismatch, or null. `prefix` places a payload's paths inside the event. */
function firstError(schema: TSchema, value: unknown, prefix = ""): string | null {
  const e = Value.Errors(schema, value).First();
  if (!e) return null;
  return `${prefix}${e.path}: ${e.message}`;
}

function parseOne(e: Record<string, unknown>, type: string, payload: Record<string, unknown>): FeedEvent {
  const id = idOf(e);
  const problem =
    firstError(EventSchema, e) ??
    (isEventType(type) ? firstError(PAYLOAD_SCHEMAS[type], payload, "/payload") : `/type: unknown event type`);
  if (problem === null) return { ...e, id: id! } as KnownEvent;
  return {
    id,
    type,
    created_at: typeof e.created_at === "string" ? e.created_at : null,
    payload,
    validation_error: `${type} ${id ?? "(no id)"}: ${problem}`,
  };
}

export function parseEvents(json: unknown): ParsedEvents {
  const events: FeedEvent[] = [];
  let skipped = 0;
  if (!Array.isArray(json)) return { events, skipped };
  for (const el of json) {
    try {
      if (!isPlainObject(el) || typeof el.type !== "string" || !isPlainObject(el.payload)) {
        skipped++;
        continue;
      }
      events.push(parseOne(el, el.type, el.payload));
    } catch {
      // Only reachable with values JSON cannot produce (throwing getters, proxies); the promise is "never throws".
      skipped++;
    }
  }
  return { events, skipped };
}
