import { z } from 'zod';
import { timestampSchema } from '../common.js';
import { agenticEventData } from './agentic-data.js';
import { connectionEventData } from './connection-data.js';
import { sentinelEventData } from './sentinel-data.js';
import { serverStateEventData } from './server-state-data.js';

/** The data schema of every event type, by type (used to check sentinel condition paths). */
export const eventDataSchemas = {
  ...serverStateEventData,
  ...agenticEventData,
  ...sentinelEventData,
  ...connectionEventData,
} as const;

type DataSchemas = typeof eventDataSchemas;
/** Every event type name. */
export type EventType = keyof DataSchemas;
/** The payload of one event type: `EventData<'codon.completed'>`. */
export type EventData<T extends EventType> = z.infer<DataSchemas[T]>;

/**
 * An event: `{id, type, timestamp, data}` (seed 003 "Event Structure"), narrowed by `type`.
 * `HankweaveEvent<'token.usage'>` is one type; `HankweaveEvent` is the union of all of them.
 */
export type HankweaveEvent<T extends EventType = EventType> = T extends EventType
  ? { id: string; type: T; timestamp: string; data: EventData<T> }
  : never;

/** An event before the journal has given it an id. */
export type NewEvent<T extends EventType = EventType> = T extends EventType
  ? { id?: string; type: T; timestamp: string; data: EventData<T> }
  : never;

export const SERVER_STATE_EVENT_TYPES = Object.keys(serverStateEventData) as Array<
  keyof typeof serverStateEventData
>;
export const AGENTIC_BACKBONE_EVENT_TYPES = Object.keys(agenticEventData) as Array<
  keyof typeof agenticEventData
>;
export const SENTINEL_EVENT_TYPES = Object.keys(sentinelEventData) as Array<
  keyof typeof sentinelEventData
>;
export const CONNECTION_STATE_EVENT_TYPES = Object.keys(connectionEventData) as Array<
  keyof typeof connectionEventData
>;
export const EVENT_TYPES = Object.keys(eventDataSchemas) as EventType[];

export type ServerStateEventType = (typeof SERVER_STATE_EVENT_TYPES)[number];
export type AgenticBackboneEventType = (typeof AGENTIC_BACKBONE_EVENT_TYPES)[number];
export type SentinelEventType = (typeof SENTINEL_EVENT_TYPES)[number];
export type ConnectionStateEventType = (typeof CONNECTION_STATE_EVENT_TYPES)[number];
/** The types that go to the journal: everything but connection-state events (seed 003). */
export type JournaledEventType =
  | ServerStateEventType
  | AgenticBackboneEventType
  | SentinelEventType;
export const JOURNALED_EVENT_TYPES: readonly JournaledEventType[] = [
  ...SERVER_STATE_EVENT_TYPES,
  ...AGENTIC_BACKBONE_EVENT_TYPES,
  ...SENTINEL_EVENT_TYPES,
];

export const EVENT_CATEGORIES = {
  serverState: SERVER_STATE_EVENT_TYPES,
  agenticBackbone: AGENTIC_BACKBONE_EVENT_TYPES,
  sentinel: SENTINEL_EVENT_TYPES,
  connectionState: CONNECTION_STATE_EVENT_TYPES,
} as const;
export type EventCategory = keyof typeof EVENT_CATEGORIES;

/** Event ids are `evt_` followed by a random suffix. */
export const eventIdSchema = z.string().min(1);

/** Makes a fresh `evt_` id. */
export const createEventId = (): string =>
  `evt_${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;

function envelopes(idSchema: z.ZodType<string | undefined>) {
  return Object.entries(eventDataSchemas).map(([type, data]) =>
    z.looseObject({ id: idSchema, type: z.literal(type), timestamp: timestampSchema, data }),
  );
}

/** Any journaled or wire event of a known type, validated against its data schema. */
export const eventSchema = z.discriminatedUnion(
  'type',
  envelopes(eventIdSchema) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<HankweaveEvent>;

/** Like `eventSchema`, but the id may be missing (the journal assigns one). */
export const newEventSchema = z.discriminatedUnion(
  'type',
  envelopes(eventIdSchema.optional()) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<NewEvent>;

/**
 * The envelope only, for tolerant reading: an event of a type this version does not know (from
 * a newer runtime) is kept rather than rejected.
 */
export const eventEnvelopeSchema = z.looseObject({
  id: z.string(),
  type: z.string().min(1),
  timestamp: z.string(),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

const inCategory =
  <T extends EventType>(types: readonly T[]) =>
  (event: { type: string } | null | undefined): event is HankweaveEvent<T> =>
    event != null && (types as readonly string[]).includes(event.type);

/** True for codon lifecycle, server and rollback events (seed 003 "Server State Events"). */
export const isServerStateEvent = inCategory(SERVER_STATE_EVENT_TYPES);
/** True for what the agent does: actions, tool results, file changes, rig events. */
export const isAgenticBackboneEvent = inCategory(AGENTIC_BACKBONE_EVENT_TYPES);
/** True for sentinel lifecycle and output events. */
export const isSentinelEvent = inCategory(SENTINEL_EVENT_TYPES);
/** True for per-client, never-journaled events (`server.ready`, `pong`, `history.batch` ...). */
export const isConnectionStateEvent = inCategory(CONNECTION_STATE_EVENT_TYPES);
/** True for every event that belongs in the journal. */
export const isJournaledEvent = inCategory(JOURNALED_EVENT_TYPES);

/** The category of an event type, or undefined for a type this version does not know. */
export function eventCategoryOf(type: string): EventCategory | undefined {
  for (const [category, types] of Object.entries(EVENT_CATEGORIES)) {
    if ((types as readonly string[]).includes(type)) return category as EventCategory;
  }
  return undefined;
}
