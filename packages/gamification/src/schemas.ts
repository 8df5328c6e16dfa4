import { BigintId, SchoolDay } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { HALT_SIGNALS, MASTERY_EVENT_SOURCE_KINDS } from './codes';

const EngineEventId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' });
const StudentId = BigintId;

export const SourceKindSchema = Type.Unsafe<(typeof MASTERY_EVENT_SOURCE_KINDS)[number]>(
  Type.String({ enum: [...MASTERY_EVENT_SOURCE_KINDS] }),
);

export const IngestBody = Type.Unsafe<
  | {
      kind: 'mastery_event';
      engineEventId: string;
      studentId: number;
      sourceKind: (typeof MASTERY_EVENT_SOURCE_KINDS)[number];
      skillId?: string;
      measureCode?: string;
      schoolDay?: string;
      occurredAt: string;
      sessionId: string;
    }
  | { kind: 'halt'; engineEventId: string; studentId: number; signal: (typeof HALT_SIGNALS)[number] }
>({
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: [
    Type.Object({
      kind: Type.Literal('mastery_event'),
      engineEventId: EngineEventId,
      studentId: StudentId,
      sourceKind: SourceKindSchema,
      skillId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      measureCode: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      schoolDay: Type.Optional(SchoolDay),
      occurredAt: Type.String({ format: 'date-time' }),
      sessionId: Type.String({ minLength: 1, maxLength: 128 }),
    }),
    Type.Object({
      kind: Type.Literal('halt'),
      engineEventId: EngineEventId,
      studentId: StudentId,
      signal: Type.Unsafe<(typeof HALT_SIGNALS)[number]>(Type.String({ enum: [...HALT_SIGNALS] })),
    }),
  ],
});

export const IngestResponse = Type.Object({
  outcome: Type.Unsafe<'recorded' | 'duplicate' | 'halted'>(Type.String({ enum: ['recorded', 'duplicate', 'halted'] })),
  masteryEventId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  written: Type.Boolean({ description: 'false for a duplicate or a halt signal' }),
  xpCredited: Type.Optional(Type.Integer()),
  badgeCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  signal: Type.Optional(Type.String()),
});

/** Most events one batch request carries (recordMasteryEvents' MAX_MASTERY_BATCH). */
export const MAX_INGEST_BATCH = 500;

export const IngestBatchBody = Type.Object(
  { events: Type.Array(IngestBody, { minItems: 1, maxItems: MAX_INGEST_BATCH }) },
  { additionalProperties: false },
);

export const IngestBatchResponse = Type.Object({
  recorded: Type.Integer({ description: 'events written by this request' }),
  results: Type.Array(
    Type.Object({
      engineEventId: Type.String(),
      outcome: Type.Unsafe<'recorded' | 'duplicate' | 'halted' | 'not_found'>(
        Type.String({ enum: ['recorded', 'duplicate', 'halted', 'not_found'] }),
      ),
      masteryEventId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
      written: Type.Boolean(),
      xpCredited: Type.Optional(Type.Integer()),
      badgeCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      signal: Type.Optional(Type.String()),
    }),
    { description: 'one per event, in request order' },
  ),
});

export const StudentParams = Type.Object({ id: StudentId });

const Badge = Type.Object({
  code: Type.String(),
  nameAr: Type.String(),
  descriptionAr: Type.String(),
  awardedAt: Type.String({ format: 'date-time' }),
  studentBadgeId: Type.Optional(Type.Integer({ description: 'adults only' })),
  status: Type.Optional(
    Type.Unsafe<'active' | 'rescinded'>(Type.String({ enum: ['active', 'rescinded'], description: 'adults only' })),
  ),
});

export const ProfileResponse = Type.Object({
  studentId: Type.Integer(),
  xpBalance: Type.Integer({ description: 'sum over the XP ledger, derived on every read' }),
  avatarTier: Type.Integer({ minimum: 1, maximum: 5 }),
  streak: Type.Object({
    current: Type.Integer(),
    longest: Type.Integer(),
    lastTickDate: Type.Union([SchoolDay, Type.Null()]),
  }),
  badges: Type.Array(Badge),
  celebrations: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String({ format: 'uuid', description: 'one per (student, tier) and per (student, milestone)' }),
        kind: Type.Unsafe<'avatar_tier' | 'streak_milestone'>(
          Type.String({ enum: ['avatar_tier', 'streak_milestone'] }),
        ),
        tier: Type.Optional(Type.Integer({ minimum: 2, maximum: 5, description: 'avatar_tier only' })),
        days: Type.Optional(Type.Integer({ description: 'streak_milestone only: 5, 10 or 20' })),
        at: Type.String({ format: 'date-time', description: 'when the ledger first reached it' }),
      }),
      { description: 'the student themself only: pending until acknowledged' },
    ),
  ),
});

/** The parent's number-free view (docs/parent-portal.md): phrases and badge names, no number or id but the child's. */
export const ParentProfileResponse = Type.Object(
  {
    studentId: Type.Integer({ description: "the child's id (the path's own)" }),
    journeyAr: Type.String({ description: 'the avatar tier as a growth phrase' }),
    streakAr: Type.String({ description: 'the current streak as a phrase' }),
    badges: Type.Array(
      Type.Object(
        { nameAr: Type.String(), descriptionAr: Type.String(), awardedAt: Type.String({ format: 'date-time' }) },
        { additionalProperties: false },
      ),
      { description: 'active badges only' },
    ),
  },
  { additionalProperties: false },
);

export const CelebrationParams = Type.Object({ id: StudentId, celebrationId: Type.String({ format: 'uuid' }) });

export const CelebrationAckResponse = Type.Object({
  id: Type.String({ format: 'uuid' }),
  kind: Type.Unsafe<'avatar_tier' | 'streak_milestone'>(Type.String({ enum: ['avatar_tier', 'streak_milestone'] })),
  tier: Type.Optional(Type.Integer()),
  days: Type.Optional(Type.Integer()),
  at: Type.String({ format: 'date-time' }),
  acknowledgedAt: Type.String({ format: 'date-time', description: 'the first acknowledgement (repeating it is 200)' }),
});
