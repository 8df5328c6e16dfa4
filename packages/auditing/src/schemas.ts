import { OrganizationId } from '@qiraa/identity';
import { Type } from 'typebox';
import { EXPLAINED } from './queries/explain';

export const MAX_LIMIT = 500;
export const DEFAULT_LIMIT = 100;

export const Limit = Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'page size' });
export const Cursor = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,512}$',
  description: 'the `next` of the previous page (opaque)',
});
export const Position = Type.String({
  pattern: '^[0-9]{1,20}:[0-9]{1,19}$',
  description: 'a log position as events carry it (`position`); exclusive',
});
const Next = Type.Union([Type.String(), Type.Null()], {
  description: 'pass as `cursor` for the next page; null at the end',
});

const eventProperties = {
  eventId: Type.String({ format: 'uuid' }),
  streamId: Type.String(),
  version: Type.Integer({ minimum: 1, description: '1-based position in the stream' }),
  position: Type.String({ description: 'position in the whole log, commit order (`after` takes it)' }),
  type: Type.String(),
  data: Type.Unknown({ description: 'as stored' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'as stored; events written since migration 0044 carry actorUserId or systemActor, organizationId, ' +
      'correlationId and causationId',
  }),
  recordedAt: Type.String({ format: 'date-time' }),
};
/** Shared (context.ts `sharedSchemas`): one event as the auditor routes show it. */
export const AuditedEvent = Type.Object(eventProperties, { $id: 'AuditedEvent' });
const EventRef = Type.Ref('AuditedEvent');

export const StreamsQuery = Type.Object({
  studentId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});
export const StreamsPage = Type.Object({
  items: Type.Array(
    Type.Object({
      streamId: Type.String(),
      category: Type.String({ description: 'the stream id before its first `-`' }),
      version: Type.Integer({ minimum: 1, description: 'events in the stream' }),
      firstRecordedAt: Type.String({ format: 'date-time' }),
      lastRecordedAt: Type.String({ format: 'date-time' }),
    }),
  ),
  next: Next,
});

export const StreamParams = Type.Object({ streamId: Type.String({ minLength: 1, maxLength: 200 }) });
export const StreamEventsQuery = Type.Object({
  fromVersion: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 })),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});
export const EventsPage = Type.Object({ items: Type.Array(EventRef), next: Next });

export const LogQuery = Type.Object({
  after: Type.Optional(Position),
  type: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$', description: 'one event type' })),
  category: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'one stream category' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'recorded at or after (inclusive)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'recorded before (exclusive)' })),
  // One organization's streams; who may name which: the route's description (auditorRoutes.ts).
  organizationId: Type.Optional(OrganizationId),
  limit: Type.Optional(Limit),
  cursor: Type.Optional(Cursor),
});

export const EventParams = Type.Object({ eventId: Type.String({ format: 'uuid' }) });
export const EventWithCauses = Type.Object({
  event: EventRef,
  causedBy: Type.Union([EventRef, Type.Null()], {
    description: 'the event its causationId names; null when that is a request, tick, command or outside id',
  }),
  caused: Type.Array(EventRef, { description: 'the events whose causationId is this event (at most 500)' }),
});

export const ExplainParams = Type.Object({ studentId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export const ExplainQuery = Type.Object({
  what: Type.Union(
    EXPLAINED.map((w) => Type.Literal(w)),
    { description: 'the derived value' },
  ),
  subSkillId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'required for skillStatus and trainingLevel' }),
  ),
});
export const Explanation = Type.Object({
  what: Type.String(),
  value: Type.Unknown({
    description: 'as the read model holds it: XP balance, badge codes, a status (null: not decided), a level',
  }),
  events: Type.Array(
    Type.Object({
      ...eventProperties,
      delta: Type.Optional(Type.Integer({ description: 'xpBalance: the XP this event moved' })),
    }),
  ),
});

export const VerifyStatus = Type.Object({
  checkpoint: Type.Union([
    Type.Object({
      position: Type.String({ description: 'the last event the checkpoint covers' }),
      events: Type.Integer({ description: 'events recomputed up to it' }),
      digest: Type.String({ description: 'sha256 running digest of their hashes, hex' }),
      verifiedAt: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
});
