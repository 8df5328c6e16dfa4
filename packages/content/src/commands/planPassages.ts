import { passageHash, wordCountOf } from '../engine/contentHashes';
import { laterDuplicates } from '../engine/duplicateKeys';
import { allPass } from '../engine/languageCheck';
import { newContentId } from '../ids';
import type { PassageRow } from '../schemas/importBody';
import { mapInSlices } from './inSlices';
import { accepted, type Insert, type PlanContext, type PlannedRow, rejected } from './planTypes';
import { decideVersion, storedVersions } from './storedVersions';

export interface PassagePlan {
  rows: PlannedRow[];
  inserts: Insert[];
  /** Passage rows of this batch that are stored or unchanged: external id → passage id. */
  idByExternalId: Map<string, string>;
  /** External ids of passage rows of this batch that were rejected. */
  rejectedExternalIds: Set<string>;
}

/** Passage rows: duplicates, language safety, then new version or unchanged. */
export async function planPassages(ctx: PlanContext, passages: readonly PassageRow[]): Promise<PassagePlan> {
  const plan: PassagePlan = { rows: [], inserts: [], idByExternalId: new Map(), rejectedExternalIds: new Set() };
  const duplicates = laterDuplicates(passages.map((p) => p.external_id));
  const stored = await storedVersions(
    ctx.tx,
    'content_passages',
    ctx.organizationId,
    passages.map((p) => p.external_id),
  );
  // The CPU part (language check, hash) in slices, so a large batch does not hold the event loop.
  const checked = await mapInSlices(passages, (p, i) =>
    duplicates.has(i)
      ? null
      : {
          hash: passageHash({ grade: p.grade, titleAr: p.title_ar, bodyAr: p.body_ar }),
          safe: allPass(ctx.filter, [p.title_ar, p.body_ar]),
        },
  );
  passages.forEach((p, i) => {
    const check = checked[i];
    if (!check) {
      plan.rows.push(rejected('passage', i, p.external_id, 'duplicate_external_id_in_batch'));
      return;
    }
    const { hash } = check;
    const decision = check.safe ? decideVersion(stored.get(p.external_id), hash) : null;
    if (decision === null || decision.kind === 'pending_version_exists') {
      plan.rejectedExternalIds.add(p.external_id);
      const reason = decision === null ? 'language_safety_blocked' : 'pending_version_exists';
      plan.rows.push(rejected('passage', i, p.external_id, reason));
      return;
    }
    const id = decision.kind === 'unchanged' ? decision.id : newContentId('psg');
    plan.idByExternalId.set(p.external_id, id);
    plan.rows.push(accepted('passage', i, p.external_id, id, decision.kind === 'unchanged', id));
    if (decision.kind === 'new') {
      plan.inserts.push({
        id,
        organization_id: ctx.organizationId,
        external_id: p.external_id,
        version: decision.version,
        grade: p.grade,
        title_ar: p.title_ar,
        body_ar: p.body_ar,
        word_count: wordCountOf(p.body_ar),
        status: 'pending_review',
        content_hash: hash,
        import_batch_id: ctx.batchId,
      });
    }
  });
  return plan;
}
