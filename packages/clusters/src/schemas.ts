import { type Static, Type } from 'typebox';
import { CLUSTER_KEY_PATTERN } from './engine/clusterKey';
import { MORE_DATA_REASONS } from './engine/computeClusters';
import { ASSIGNMENT_STATES } from './queries/previewOf';
import { DELIVERY_MODES, MERGE_L1_L2, SCAFFOLD_TIERS } from './rules/ruleSet';

export const security = [{ bearerAuth: [] }];
export const tags = ['clusters'];

const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));
const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const StudentId = Type.Integer({ minimum: 1 });

export const ClassIdParams = Type.Object({ classId: Type.String({ minLength: 1, maxLength: 64 }) });
export const StudentIdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'the student (user id)' }) });

export const ClusterKeySchema = Type.String({
  pattern: CLUSTER_KEY_PATTERN,
  maxLength: 400,
  description: 'the canonical key of the five dimensions (docs/clusters.md, CLU-06)',
});

const ClusterSchema = Type.Object({
  clusterKey: ClusterKeySchema,
  bundleId: Type.String(),
  anchorSkillGroup: Type.String(),
  scaffoldTier: literals([...SCAFFOLD_TIERS, MERGE_L1_L2]),
  compatibleDeliveryMode: literals(DELIVERY_MODES),
  sufficientData: Type.Boolean(),
  memberStudentIds: Type.Array(StudentId),
  ruleIds: Type.Array(Type.String()),
});

export const RecomputeResponse = Type.Object({
  generationId: Type.String({ format: 'uuid' }),
  classId: Type.String(),
  ruleSetVersion: Type.String(),
  minClusterSize: Type.Integer({ minimum: 2, maximum: 5 }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  created: Type.Boolean({ description: 'false: the inputs were unchanged and the current generation is answered' }),
  clusters: Type.Array(ClusterSchema),
  individualReview: Type.Array(
    Type.Object({ studentId: StudentId, alertIds: Type.Array(Type.String()), ruleId: Type.Literal('CLU-01') }),
  ),
  moreDataNeeded: Type.Array(
    Type.Object({ studentId: StudentId, reason: literals(MORE_DATA_REASONS), ruleId: Type.Literal('CLU-02') }),
  ),
});
export type RecomputeResponse = Static<typeof RecomputeResponse>;

export const BulkActivateBody = Type.Object({
  clusterKey: ClusterKeySchema,
  confirmedMemberStudentIds: Type.Array(StudentId, { minItems: 1, maxItems: 99, uniqueItems: true }),
  memberAdjustments: Type.Array(Type.Unknown(), { maxItems: 99, description: 'accepted, must be empty' }),
});

export const BulkActivateResponse = Type.Object({
  clusterKey: ClusterKeySchema,
  generationId: Type.String({ format: 'uuid' }),
  bundleId: Type.String(),
  activatedAt: Type.String({ format: 'date-time' }),
  assignments: Type.Array(Type.Object({ studentId: StudentId, assignmentId: Type.String({ format: 'uuid' }) })),
});

export const PreviewResponse = Type.Object({
  studentId: StudentId,
  assignment: Type.Object({
    state: literals(ASSIGNMENT_STATES),
    generationId: nullableString('the generation read; null when none is current'),
    classId: nullableString('the class of the generation'),
    ruleSetVersion: nullableString('the pinned cluster rule set'),
    createdAt: nullableString('the generation’s createdAt'),
    expiresAt: nullableString('createdAt + 60 days'),
    clusterKey: nullableString('clustered: the key'),
    bundleId: nullableString('clustered: the bundle'),
    scaffoldTier: nullableString('clustered: Level_1..3 or MERGE_L1_L2'),
    compatibleDeliveryMode: nullableString('clustered: teacher_led or independent'),
    reason: nullableString('more_data_needed: the CLU-02 reason'),
  }),
  activeBundle: Type.Union([
    Type.Object({
      assignmentId: Type.String({ format: 'uuid' }),
      bundleId: Type.String(),
      clusterKey: Type.String(),
      activatedAt: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ]),
  tierBreakdown: Type.Array(
    Type.Object({
      skillId: Type.String(),
      taskType: Type.String(),
      Level_1: Type.Integer({ minimum: 0 }),
      Level_2: Type.Integer({ minimum: 0 }),
      Level_3: Type.Integer({ minimum: 0 }),
    }),
  ),
});
