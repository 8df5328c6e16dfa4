import { type Static, type TSchema, Type } from 'typebox';
import { REJECT_REASONS } from '../engine/rejectReasons';
import { CONTENT_KINDS } from '../queries/catalogTypes';
import { literals, OrganizationScope } from '.';
import { AgreementSignoffSchema, SourceDeclaredSchema } from './importBody';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const FormPosition = Type.Object({ measureCode: Type.String(), formPosition: Type.Integer() });

export const FormProblemsSchema = Type.Object({
  missingPositions: Type.Array(FormPosition),
  duplicatePositions: Type.Array(FormPosition),
  countMismatch: Type.Array(
    Type.Object({ measureCode: Type.String(), expected: Type.Integer(), actual: Type.Integer() }),
  ),
  measuresNotInGrade: Type.Array(Type.String()),
});

export const ReportRowSchema = Type.Object({
  entity: literals(['passage', 'item', 'scaffold_prompt', 'word_list'] as const),
  rowIndex: Type.Integer({ minimum: 0, description: 'index of the row in its array of the body' }),
  externalId: Nullable(Type.String()),
  passageId: Nullable(Type.String({ description: 'a passage row’s passage, or the passage an item links to' })),
  wordListId: Nullable(Type.String()),
  scaffoldPromptId: Nullable(Type.String()),
  itemBankId: Nullable(Type.String()),
  rejectReason: Nullable(literals(REJECT_REASONS)),
  unchanged: Type.Boolean({ description: 'equal to the newest stored version: nothing stored, its id shown' }),
});

const batchFields = {
  batchId: Type.String(),
  contentKind: literals(CONTENT_KINDS),
  organizationId: OrganizationScope,
  sourceDeclared: Nullable(SourceDeclaredSchema),
  agreementSignoff: Nullable(AgreementSignoffSchema),
  status: literals(['pending_review', 'approved'] as const),
  createdAt: Type.String({ format: 'date-time' }),
  createdBy: Nullable(Type.Integer({ description: 'null: imported by the operator CLI' })),
  counts: Type.Object({
    rows: Type.Integer(),
    accepted: Type.Integer({ description: 'rows stored as a new version' }),
    rejected: Type.Integer(),
    unchanged: Type.Integer(),
  }),
  formProblems: Type.Optional(FormProblemsSchema),
  screeningFormId: Type.Optional(Nullable(Type.String())),
  formRejected: Type.Optional(Type.Boolean()),
  approvedAt: Nullable(Type.String({ format: 'date-time' })),
  approvedBy: Nullable(Type.Integer()),
  retired: Type.Array(Type.String(), { description: 'ids the approval retired; empty until approved' }),
};

/** A batch in lists (GET /api/items/import): the report without its rows. */
export const BatchSummarySchema = Type.Object(batchFields);
/** The batch report (POST /api/items/import, GET /api/items/import/{batchId}). */
export const ImportReportSchema = Type.Object({ ...batchFields, rows: Type.Array(ReportRowSchema) });
/** The approval's answer: the report after approval, with the item-bank pin it took. */
export const ApprovalSchema = Type.Object({
  ...batchFields,
  rows: Type.Array(ReportRowSchema),
  itemBankPinId: Nullable(Type.String({ description: 'the pin taken when operational items changed' })),
});

export type BatchSummary = Static<typeof BatchSummarySchema>;
export type ImportReport = Static<typeof ImportReportSchema>;
export type ReportRow = Static<typeof ReportRowSchema>;
