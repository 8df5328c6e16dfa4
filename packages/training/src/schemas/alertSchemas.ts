import { BigintId, DateTime, SchoolDay } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { ALERT_PAGE_DEFAULT, ALERT_PAGE_MAX } from '../queries/alertCursor';

const Uuid = Type.String({ format: 'uuid' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AlertListQuery = Type.Object(
  {
    classId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a class the caller teaches' })),
    groupId: Type.Optional(Type.String({ format: 'uuid', description: 'a support group the caller owns' })),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('all')], {
        default: 'open',
        description: '`open` (default): not yet resolved (open or acknowledged); `all`: resolved ones too',
      }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'the nextCursor of the previous page (opaque)' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ALERT_PAGE_MAX,
        default: ALERT_PAGE_DEFAULT,
        description: `page size, default ${ALERT_PAGE_DEFAULT}, at most ${ALERT_PAGE_MAX}`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const AlertEvidenceSchema = Type.Object({
  sessions: Type.Array(
    Type.Object({ date: SchoolDay, counted: Type.Integer({ minimum: 0 }), correct: Type.Integer({ minimum: 0 }) }),
  ),
  daysAtLevel: Type.Integer({ minimum: 0 }),
});

/** Spec: Training alert row. */
export const TrainingAlertRow = Type.Object({
  alertId: Uuid,
  studentId: BigintId,
  fullNameAr: Type.String(),
  skillId: Type.String(),
  skillLabelAr: Type.String(),
  measureCode: Type.Union([Type.String(), Type.Null()], {
    description: 'null for a skill no screening measure covers (as in the levels view)',
  }),
  levelNumber: Type.Integer({ minimum: 1, maximum: 4 }),
  levelNameAr: Type.String(),
  kind: Type.Union([Type.Literal('no_progress_at_level'), Type.Literal('support_review_suggested')]),
  titleAr: Type.String(),
  messageAr: Type.String(),
  raisedAt: DateTime,
  acknowledgedAt: Nullable(DateTime),
  status: Type.Union([Type.Literal('open'), Type.Literal('acknowledged'), Type.Literal('resolved')]),
  evidence: AlertEvidenceSchema,
});

export const AlertListResponse = Type.Object({
  items: Type.Array(TrainingAlertRow, { description: 'newest first (raisedAt, then alertId), one page' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'opaque; pass it as `cursor` for the next page; null on the last page',
  }),
});

export const AlertIdParams = Type.Object({ alertId: Uuid }, { additionalProperties: false });

export const AcknowledgeResponse = Type.Object({ alertId: Uuid, acknowledgedAt: DateTime });
