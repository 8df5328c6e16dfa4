import { Type } from 'typebox';
import { BLUEPRINT_REJECT_REASONS, BLUEPRINT_TAGS, THEMES } from '../codes';
import { literals, Nullable } from '.';

export const BLUEPRINT_STATUSES = ['pending_review', 'operational', 'retired'] as const;
export const BATCH_STATUSES = ['pending_review', 'operational'] as const;

const SubSkillId = Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 64 });

/** One blueprint as authored: every Arabic string is student-facing (it is printed on the sheet). */
export const BlueprintInput = Type.Object(
  {
    externalId: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$' }),
    grade: Type.Integer({ minimum: 1, maximum: 4 }),
    theme: literals(THEMES),
    subSkillIds: Type.Array(SubSkillId, { minItems: 1, maxItems: 5, uniqueItems: true }),
    targetMinutes: Type.Integer({ minimum: 5, maximum: 60, description: 'target session length in minutes' }),
    titleAr: Type.String({ minLength: 1, maxLength: 120 }),
    introAr: Type.String({ minLength: 1, maxLength: 400, description: 'the instruction printed above the items' }),
    tags: Type.Optional(Type.Array(literals(BLUEPRINT_TAGS), { maxItems: 8, uniqueItems: true })),
  },
  { additionalProperties: false },
);

export const ImportBlueprintsBody = Type.Object(
  {
    organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    blueprints: Type.Array(BlueprintInput, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);

export const BlueprintSchema = Type.Object({
  id: Type.String(),
  externalId: Type.String(),
  version: Type.Integer(),
  organizationId: Nullable(Type.String()),
  status: literals(BLUEPRINT_STATUSES),
  batchId: Type.String(),
  grade: Type.Integer(),
  theme: literals(THEMES),
  themeLabelAr: Type.String(),
  subSkillIds: Type.Array(Type.String()),
  targetMinutes: Type.Integer(),
  titleAr: Type.String(),
  introAr: Type.String(),
  tags: Type.Array(Type.String()),
  contentHash: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  approvedAt: Nullable(Type.String({ format: 'date-time' })),
});

export const BatchRowSchema = Type.Object({
  externalId: Type.String(),
  blueprintId: Nullable(Type.String()),
  version: Nullable(Type.Integer()),
  unchanged: Type.Boolean({ description: 'equal to the newest stored version: nothing new stored' }),
  rejectReason: Nullable(literals(BLUEPRINT_REJECT_REASONS)),
});

const batchFields = {
  batchId: Type.String(),
  organizationId: Nullable(Type.String()),
  status: literals(BATCH_STATUSES),
  createdAt: Type.String({ format: 'date-time' }),
  approvedAt: Nullable(Type.String({ format: 'date-time' })),
  approvedBy: Nullable(Type.Integer()),
  counts: Type.Object({ accepted: Type.Integer(), unchanged: Type.Integer(), rejected: Type.Integer() }),
};
export const BatchSummarySchema = Type.Object(batchFields);
export const BatchReportSchema = Type.Object({ ...batchFields, rows: Type.Array(BatchRowSchema) });
