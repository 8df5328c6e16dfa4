import { Type } from 'typebox';
import { DELIVERY_MODES, HELD_OUT_REASONS, MEDIA, OVERRIDE_CODES, SESSION_STATES, THEMES } from '../codes';
import { literals, Nullable } from '.';

const DateTime = Type.String({ format: 'date-time' });
const SubSkillId = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 });
export const ClassIdQuery = Type.String({ minLength: 1, maxLength: 64 });

export const SessionParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const RecipientParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  studentId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

export const FromBlueprintBody = Type.Object(
  { classId: ClassIdQuery, blueprintId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const EditBody = Type.Object(
  {
    subSkillIds: Type.Optional(Type.Array(SubSkillId, { minItems: 1, maxItems: 5, uniqueItems: true })),
    theme: Type.Optional(literals(THEMES)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const AcceptBody = Type.Object(
  {
    deliveryMode: literals(DELIVERY_MODES),
    printedStudentIds: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), { maxItems: 99, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);
export const IncludeBody = Type.Object({ overrideCode: literals(OVERRIDE_CODES) }, { additionalProperties: false });

export const AdvisorySchema = Type.Object({
  code: literals(['thin_item_coverage'] as const),
  subSkillIds: Type.Array(Type.String()),
  minimumItems: Type.Integer(),
});

export const RecipientSchema = Type.Object({
  studentId: Type.Integer(),
  fullNameAr: Type.String(),
  medium: literals(MEDIA),
  overrideCode: Nullable(literals(OVERRIDE_CODES)),
  onlineQueuedAt: Nullable(DateTime),
  pdfGenerated: Type.Boolean(),
  linkOpenedAt: Nullable(DateTime),
  progress: Type.Object(
    {
      answered: Type.Integer({ description: 'items of the slot answered in the practice queue' }),
      total: Type.Integer({ description: 'items of the slot' }),
      completedAt: Nullable(DateTime),
    },
    { description: 'the child’s online practice of this session (the queue serves it once queued)' },
  ),
});
export const NotIncludedSchema = Type.Object({
  studentId: Type.Integer(),
  fullNameAr: Type.String(),
  reason: literals(HELD_OUT_REASONS),
});

export const SessionSchema = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  schoolId: Type.String(),
  classId: Type.String(),
  teacherUserId: Type.Integer(),
  blueprint: Type.Object({
    id: Type.String(),
    externalId: Type.String(),
    version: Type.Integer(),
    titleAr: Type.String(),
    targetMinutes: Type.Integer(),
  }),
  status: literals(SESSION_STATES),
  theme: literals(THEMES),
  themeLabelAr: Type.String(),
  subSkillIds: Type.Array(Type.String()),
  deliveryMode: Nullable(literals(DELIVERY_MODES)),
  deliveredBy: Nullable(literals(['distribute_online', 'generate_pdfs', 'deliver_mixed'] as const)),
  advisories: Type.Array(AdvisorySchema),
  recipients: Type.Array(RecipientSchema),
  notIncluded: Type.Array(NotIncludedSchema),
  createdAt: DateTime,
  acceptedAt: Nullable(DateTime),
  deliveredAt: Nullable(DateTime),
  cancelledAt: Nullable(DateTime),
});

export const SessionSummarySchema = Type.Object({
  id: Type.String(),
  classId: Type.String(),
  status: literals(SESSION_STATES),
  blueprintId: Type.String(),
  blueprintVersion: Type.Integer(),
  titleAr: Type.String(),
  theme: literals(THEMES),
  deliveryMode: Nullable(literals(DELIVERY_MODES)),
  recipientCount: Type.Integer(),
  notIncludedCount: Type.Integer(),
  createdAt: DateTime,
});

export const OnlineResultSchema = Type.Object({
  queued: Type.Array(Type.Integer(), { description: 'students queued by this call' }),
  alreadyQueued: Type.Array(Type.Integer(), { description: 'students queued before (idempotent per student)' }),
});

export const DeliveryResponse = Type.Object({
  sessionId: Type.String(),
  status: literals(SESSION_STATES),
  online: OnlineResultSchema,
});

export const MixedResponse = Type.Object({
  sessionId: Type.String(),
  status: literals(SESSION_STATES),
  online: OnlineResultSchema,
  printed: Type.Object({
    studentIds: Type.Array(Type.Integer()),
    zipBytes: Type.Integer(),
    zipSha256: Type.String(),
  }),
});

export const AuditSchema = Type.Object({
  sessionId: Type.String(),
  status: literals(SESSION_STATES),
  pins: Type.Object({
    blueprintId: Type.String(),
    blueprintExternalId: Type.String(),
    blueprintVersion: Type.Integer(),
    blueprintContentHash: Type.String(),
    itemBankPinId: Nullable(Type.String()),
    decisionRuleSetVersion: Type.String(),
    decisionRuleSetVersionsSeen: Type.Array(Type.String()),
    languageSafetyRuleSetVersion: Nullable(Type.Integer()),
    catalogVersion: Nullable(Type.String()),
  }),
  snapshot: Type.Object({
    counts: Type.Object({
      students: Type.Integer(),
      included: Type.Integer(),
      heldOut: Type.Integer(),
      overridden: Type.Integer(),
      online: Type.Integer(),
      printable: Type.Integer(),
      onlineQueued: Type.Integer(),
      pdfGenerated: Type.Integer(),
    }),
    slots: Type.Array(
      Type.Object({
        studentId: Type.Integer(),
        slotId: Type.String(),
        included: Type.Boolean(),
        heldOutReason: Nullable(literals(HELD_OUT_REASONS)),
        overrideCode: Nullable(literals(OVERRIDE_CODES)),
        medium: literals(MEDIA),
        itemIds: Type.Array(Type.String()),
        onlineQueuedAt: Nullable(DateTime),
        pdfSha256: Nullable(Type.String()),
      }),
    ),
  }),
  log: Type.Array(
    Type.Object({
      action: Type.String(),
      actorId: Nullable(Type.Integer()),
      at: DateTime,
      detail: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
});
