import { type Static, Type } from 'typebox';
import { CONTENT_KINDS } from '../queries/catalogTypes';
import { ArabicText, ContentRoleSchema, ExternalIdSchema, GradeSchema, literals } from '.';

/**
 * The body of `POST /api/items/import` and of `qiraa content import` (one shape for both). Row keys are
 * snake_case as the spec names them. Which arrays a kind takes, and the kind's source and sign-off rules,
 * are checked by bodyRules.ts after this schema; catalog checks give a per-row rejectReason (rowChecks).
 */

export const SOURCE_ORIGINS = ['authored_in_house', 'licensed', 'public_domain', 'partner_contributed'] as const;

export const SourceDeclaredSchema = Type.Object({
  origin: literals(SOURCE_ORIGINS),
  reference: Type.String({ minLength: 1, maxLength: 200, description: 'where the content comes from' }),
});

export const AgreementSignoffSchema = Type.Object({
  agreementCode: Type.String({ minLength: 1, maxLength: 80 }),
  signedByName: Type.String({ minLength: 1, maxLength: 120 }),
  signedAt: Type.String({ format: 'date-time' }),
});

const SkillId = Type.String({ minLength: 1, maxLength: 64 });

export const OptionSchema = Type.Object({
  key: Type.String({ pattern: '^[A-Za-z0-9_-]{1,16}$' }),
  text_ar: ArabicText(300),
});

export const ItemRowSchema = Type.Object({
  external_id: ExternalIdSchema,
  content_role: Type.Optional(ContentRoleSchema),
  grade: GradeSchema,
  sub_skill_id: SkillId,
  item_pattern: SkillId,
  measure_code: Type.Optional(Type.Union([SkillId, Type.Null()])),
  form_id: Type.Optional(Type.Union([ExternalIdSchema, Type.Null()])),
  form_position: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 60 }), Type.Null()])),
  training_level: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 4 }), Type.Null()])),
  bridge_target_skill_id: Type.Optional(Type.Union([SkillId, Type.Null()])),
  passage_external_id: Type.Optional(Type.Union([ExternalIdSchema, Type.Null()])),
  stem_ar: ArabicText(1000),
  options: Type.Array(OptionSchema, { minItems: 2, maxItems: 4 }),
  correct_option_key: Type.String({ minLength: 1, maxLength: 16 }),
  hint_ar: Type.Optional(Type.Union([ArabicText(1000), Type.Null()])),
  explanation_ar: Type.Optional(Type.Union([ArabicText(2000), Type.Null()])),
});

export const PassageRowSchema = Type.Object({
  external_id: ExternalIdSchema,
  grade: GradeSchema,
  title_ar: ArabicText(200),
  body_ar: ArabicText(20000),
});

export const FormRowSchema = Type.Object({
  external_id: ExternalIdSchema,
  grade: GradeSchema,
  window: literals(['BOY', 'MOY', 'EOY'] as const),
});

export const ScaffoldPromptRowSchema = Type.Object({
  external_id: ExternalIdSchema,
  sub_skill_id: SkillId,
  tier: Type.Integer({ minimum: 1, maximum: 3 }),
  prompt_ar: ArabicText(1000),
});

export const WordListRowSchema = Type.Object({
  external_id: ExternalIdSchema,
  grade: GradeSchema,
  skill_id: SkillId,
  window: Type.Optional(Type.Union([literals(['BOY', 'MOY', 'EOY'] as const), Type.Null()])),
  words: Type.Array(ArabicText(40), { minItems: 1, maxItems: 200 }),
  timing: Type.Optional(
    Type.Object({
      timed: Type.Boolean(),
      durationSeconds: Type.Optional(Type.Union([Type.Integer({ minimum: 10, maximum: 600 }), Type.Null()])),
    }),
  ),
  words_per_row: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 10 }), Type.Null()])),
  reading_note_ar: Type.Optional(Type.Union([ArabicText(500), Type.Null()])),
  school_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
});

export const ImportBody = Type.Object({
  contentKind: Type.Optional(literals(CONTENT_KINDS, { default: 'item', description: 'what the batch holds' })),
  organizationId: Type.Optional(
    Type.String({ description: 'owning organization; omitted: the caller’s own (global for the super-admin)' }),
  ),
  sourceDeclared: Type.Optional(Type.Union([SourceDeclaredSchema, Type.Null()])),
  agreementSignoff: Type.Optional(Type.Union([AgreementSignoffSchema, Type.Null()])),
  items: Type.Optional(Type.Array(ItemRowSchema, { maxItems: 20000 })),
  passages: Type.Optional(Type.Array(PassageRowSchema, { maxItems: 5000 })),
  form: Type.Optional(FormRowSchema),
  scaffoldPrompts: Type.Optional(Type.Array(ScaffoldPromptRowSchema, { maxItems: 5000 })),
  wordLists: Type.Optional(Type.Array(WordListRowSchema, { maxItems: 2000 })),
});

export type ImportBodyInput = Static<typeof ImportBody>;
export type ItemRow = Static<typeof ItemRowSchema>;
export type PassageRow = Static<typeof PassageRowSchema>;
export type FormRow = Static<typeof FormRowSchema>;
export type ScaffoldPromptRow = Static<typeof ScaffoldPromptRowSchema>;
export type WordListRow = Static<typeof WordListRowSchema>;
export type SourceDeclared = Static<typeof SourceDeclaredSchema>;
export type AgreementSignoff = Static<typeof AgreementSignoffSchema>;
