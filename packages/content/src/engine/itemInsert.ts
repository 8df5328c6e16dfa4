import type { Insert, PlanContext } from '../commands/planTypes';
import { purposeOf } from '../queries/catalogTypes';
import { type ItemContent, itemHash } from './contentHashes';

/** The content_items row of a new pending item version (content_purpose always follows the role). */
export function itemInsert(
  ctx: PlanContext,
  x: {
    id: string;
    externalId: string;
    version: number;
    content: ItemContent;
    screeningFormId: string | null;
    /** itemHash(content) when the caller has it already (hashing is a real share of a large import). */
    contentHash?: string;
  },
): Insert {
  const c = x.content;
  return {
    id: x.id,
    organization_id: ctx.organizationId,
    external_id: x.externalId,
    version: x.version,
    revision: 1,
    content_role: c.contentRole,
    content_purpose: purposeOf(c.contentRole),
    grade: c.grade,
    sub_skill_id: c.subSkillId,
    item_pattern: c.itemPattern,
    measure_code: c.measureCode,
    screening_form_id: x.screeningFormId,
    form_position: c.formPosition,
    training_level: c.trainingLevel,
    bridge_target_skill_id: c.bridgeTargetSkillId,
    passage_id: c.passageId,
    stem_ar: c.stemAr,
    options: ctx.tx.json(c.options),
    correct_option_key: c.correctOptionKey,
    hint_ar: c.hintAr,
    explanation_ar: c.explanationAr,
    status: 'pending_review',
    content_hash: x.contentHash ?? itemHash(c),
    source_declared: ctx.sourceDeclared ? ctx.tx.json(ctx.sourceDeclared) : null,
    import_batch_id: ctx.batchId,
  };
}
