import { promptHash } from '../engine/contentHashes';
import { laterDuplicates } from '../engine/duplicateKeys';
import { allPass } from '../engine/languageCheck';
import { promptRowReason } from '../engine/promptChecks';
import { newContentId } from '../ids';
import type { ScaffoldPromptRow } from '../schemas/importBody';
import { mapInSlices } from './inSlices';
import { accepted, type Insert, type PlanContext, type PlannedRow, rejected } from './planTypes';
import { decideVersion, storedVersions } from './storedVersions';

/** Scaffold prompt rows: duplicates, sub-skill, language safety, then new version or unchanged. */
export async function planPrompts(
  ctx: PlanContext,
  prompts: readonly ScaffoldPromptRow[],
): Promise<{ rows: PlannedRow[]; inserts: Insert[] }> {
  const duplicates = laterDuplicates(prompts.map((p) => p.external_id));
  const stored = await storedVersions(
    ctx.tx,
    'content_scaffold_prompts',
    ctx.organizationId,
    prompts.map((p) => p.external_id),
  );
  const checked = await mapInSlices(prompts, (p, i) => ({
    reason: duplicates.has(i)
      ? 'duplicate_external_id_in_batch'
      : (promptRowReason(p, ctx.catalog) ?? (allPass(ctx.filter, [p.prompt_ar]) ? null : 'language_safety_blocked')),
    hash: promptHash({ subSkillId: p.sub_skill_id, tier: p.tier, promptAr: p.prompt_ar }),
  }));
  const rows: PlannedRow[] = [];
  const inserts: Insert[] = [];
  prompts.forEach((p, i) => {
    const { reason, hash } = checked[i]!;
    const decision = reason === null ? decideVersion(stored.get(p.external_id), hash) : null;
    if (decision === null || decision.kind === 'pending_version_exists') {
      rows.push(rejected('scaffold_prompt', i, p.external_id, reason ?? 'pending_version_exists'));
      return;
    }
    const id = decision.kind === 'unchanged' ? decision.id : newContentId('scf');
    rows.push(accepted('scaffold_prompt', i, p.external_id, id, decision.kind === 'unchanged'));
    if (decision.kind === 'new') {
      inserts.push({
        id,
        organization_id: ctx.organizationId,
        external_id: p.external_id,
        version: decision.version,
        sub_skill_id: p.sub_skill_id,
        tier: p.tier,
        prompt_ar: p.prompt_ar,
        status: 'pending_review',
        content_hash: hash,
        import_batch_id: ctx.batchId,
      });
    }
  });
  return { rows, inserts };
}
