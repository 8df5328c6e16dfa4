import type { AnySql } from '@qiraa/db';
import { type Static, type TSchema, Type } from 'typebox';
import { ContentRoleSchema, literals, OrganizationScope } from '../schemas';
import { CONTENT_PURPOSES, type ContentPurpose, type ContentRole } from './catalogTypes';

/**
 * The two views of an item-bank item, built from its row in one place. The student projection carries only
 * what a child's screen shows; the authoring view adds everything an author needs (and the correct option).
 * Every route and export that shows an item uses these.
 */

export const ITEM_STATUSES = ['pending_review', 'operational', 'retired', 'declined'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export type ItemView = 'student' | 'authoring';

export interface ItemRowDb {
  id: string;
  organization_id: string | null;
  external_id: string;
  version: number;
  revision: number;
  content_role: ContentRole;
  content_purpose: ContentPurpose;
  grade: number;
  sub_skill_id: string;
  item_pattern: string;
  measure_code: string | null;
  screening_form_id: string | null;
  form_position: number | null;
  training_level: number | null;
  bridge_target_skill_id: string | null;
  passage_id: string | null;
  stem_ar: string;
  options: { key: string; textAr: string }[];
  correct_option_key: string;
  hint_ar: string | null;
  explanation_ar: string | null;
  status: ItemStatus;
  source_declared: unknown;
  import_batch_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const itemColumns = (sql: AnySql) => sql`
  id, organization_id, external_id, version, revision, content_role, content_purpose, grade, sub_skill_id,
  item_pattern, measure_code, screening_form_id, form_position, training_level, bridge_target_skill_id,
  passage_id, stem_ar, options, correct_option_key, hint_ar, explanation_ar, status, source_declared,
  import_batch_id, created_at, updated_at`;

export const etagOf = (revision: number) => `r${revision}`;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const StudentItemSchema = Type.Object({
  id: Type.String(),
  version: Type.Integer(),
  stemAr: Type.String(),
  options: Type.Array(Type.Object({ key: Type.String(), textAr: Type.String() })),
  passageId: Nullable(Type.String()),
});

const authoringFields = {
  contentRole: ContentRoleSchema,
  screeningFormId: Nullable(Type.String()),
  contentPurpose: literals(CONTENT_PURPOSES),
  externalId: Type.String(),
  organizationId: OrganizationScope,
  grade: Type.Integer(),
  subSkillId: Type.String(),
  itemPattern: Type.String(),
  measureCode: Nullable(Type.String()),
  formPosition: Nullable(Type.Integer()),
  trainingLevel: Nullable(Type.Integer()),
  bridgeTargetSkillId: Nullable(Type.String()),
  correctOptionKey: Type.String(),
  hintAr: Nullable(Type.String()),
  explanationAr: Nullable(Type.String()),
  status: literals(ITEM_STATUSES),
  revision: Type.Integer(),
  etag: Type.String({ description: 'r<revision>; send it as If-Match on PATCH' }),
  importBatchId: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const AuthoringItemSchema = Type.Object({ ...StudentItemSchema.properties, ...authoringFields });

/**
 * One schema for both views (the serializer writes only what the view put in): the student fields always,
 * the authoring fields only with view=authoring.
 */
export const ItemSchema = Type.Object({
  ...StudentItemSchema.properties,
  ...Object.fromEntries(Object.entries(authoringFields).map(([k, v]) => [k, Type.Optional(v)])),
});

export type StudentItem = Static<typeof StudentItemSchema>;
export type AuthoringItem = Static<typeof AuthoringItemSchema>;

export const studentItemOf = (r: ItemRowDb): StudentItem => ({
  id: r.id,
  version: r.version,
  stemAr: r.stem_ar,
  options: r.options.map((o) => ({ key: o.key, textAr: o.textAr })),
  passageId: r.passage_id,
});

export const authoringItemOf = (r: ItemRowDb): AuthoringItem => ({
  ...studentItemOf(r),
  contentRole: r.content_role,
  screeningFormId: r.screening_form_id,
  contentPurpose: r.content_purpose,
  externalId: r.external_id,
  organizationId: r.organization_id,
  grade: r.grade,
  subSkillId: r.sub_skill_id,
  itemPattern: r.item_pattern,
  measureCode: r.measure_code,
  formPosition: r.form_position,
  trainingLevel: r.training_level,
  bridgeTargetSkillId: r.bridge_target_skill_id,
  correctOptionKey: r.correct_option_key,
  hintAr: r.hint_ar,
  explanationAr: r.explanation_ar,
  status: r.status,
  revision: r.revision,
  etag: etagOf(r.revision),
  importBatchId: r.import_batch_id,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export const itemViewOf = (r: ItemRowDb, view: ItemView): StudentItem | AuthoringItem =>
  view === 'authoring' ? authoringItemOf(r) : studentItemOf(r);
