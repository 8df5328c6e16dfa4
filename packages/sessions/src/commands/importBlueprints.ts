import { contentHash, loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { type LanguageSafetyFilter, loadLanguageSafety } from '@qiraa/language-safety';
import type { Static } from 'typebox';
import type { BlueprintRejectReason } from '../codes';
import { newSessionsId } from '../ids';
import { type BatchReport, type BatchRow, batchReport } from '../queries/blueprintQueries';
import type { BlueprintInput, ImportBlueprintsBody } from '../schemas/blueprintSchemas';

type Input = Static<typeof BlueprintInput>;

/** The strings a child sees (printed on the sheet and shown online): each passes the general tier. */
export const studentFacingStrings = (b: Pick<Input, 'titleAr' | 'introAr'>) => [b.titleAr, b.introAr];

export const allPass = (filter: LanguageSafetyFilter, texts: readonly string[]) =>
  texts.every((text) => filter.check(text, 'general').kind === 'pass');

/** What makes a version: everything authored (tags sorted, so their order is not a change). */
export const blueprintHash = (b: Input) =>
  contentHash({
    grade: b.grade,
    theme: b.theme,
    subSkillIds: b.subSkillIds,
    targetMinutes: b.targetMinutes,
    titleAr: b.titleAr,
    introAr: b.introAr,
    tags: [...(b.tags ?? [])].sort(),
  });

/**
 * Imports a batch of blueprints into one scope, in one transaction (the scope locked, so two imports of one
 * external id never take the same version): each row refused with a reason, unchanged (equal to the newest
 * version: nothing stored), or stored pending_review as the next version. Nothing becomes operational here.
 */
export async function importBlueprints(
  deps: { sql: Sql },
  input: { organizationId: string | null; createdBy: number | null; body: Static<typeof ImportBlueprintsBody> },
): Promise<BatchReport> {
  const [catalog, filter] = await Promise.all([loadCatalog(deps.sql), loadLanguageSafety(deps.sql)]);
  const batchId = newSessionsId('sbb');
  const scope = input.organizationId ?? '';
  return (await inTransaction(deps.sql, async ({ sql: tx }) => {
    await tx`select pg_advisory_xact_lock(hashtext(${`ses_blueprints:${scope}`}))`;
    const seen = new Set<string>();
    const rows: BatchRow[] = [];
    const inserts: Record<string, unknown>[] = [];
    for (const b of input.body.blueprints) {
      const reject = (reason: BlueprintRejectReason) =>
        rows.push({
          externalId: b.externalId,
          blueprintId: null,
          version: null,
          unchanged: false,
          rejectReason: reason,
        });
      if (seen.has(b.externalId)) {
        reject('duplicate_external_id');
        continue;
      }
      seen.add(b.externalId);
      const subSkills = b.subSkillIds.map((id) => catalog.subSkillById.get(id));
      if (subSkills.some((s) => s === undefined)) {
        reject('unknown_sub_skill');
        continue;
      }
      if (subSkills.some((s) => s!.gradeMin > b.grade || s!.gradeMax < b.grade)) {
        reject('sub_skill_not_in_grade');
        continue;
      }
      if (!allPass(filter, studentFacingStrings(b))) {
        reject('language_safety_blocked');
        continue;
      }
      const hash = blueprintHash(b);
      const [newest] = await tx<{ id: string; version: number; content_hash: string }[]>`
        select id, version, content_hash from ses_blueprints
        where coalesce(organization_id, '') = ${scope} and external_id = ${b.externalId}
        order by version desc limit 1`;
      if (newest && newest.content_hash === hash) {
        rows.push({
          externalId: b.externalId,
          blueprintId: newest.id,
          version: newest.version,
          unchanged: true,
          rejectReason: null,
        });
        continue;
      }
      const id = newSessionsId('sbp');
      const version = (newest?.version ?? 0) + 1;
      rows.push({ externalId: b.externalId, blueprintId: id, version, unchanged: false, rejectReason: null });
      inserts.push({
        id,
        organization_id: input.organizationId,
        external_id: b.externalId,
        version,
        batch_id: batchId,
        status: 'pending_review',
        grade: b.grade,
        theme: b.theme,
        sub_skill_ids: b.subSkillIds,
        target_minutes: b.targetMinutes,
        title_ar: b.titleAr,
        intro_ar: b.introAr,
        tags: b.tags ?? [],
        content_hash: hash,
      });
    }
    await tx`
      insert into ses_blueprint_batches (id, organization_id, status, created_by, rows)
      values (${batchId}, ${input.organizationId}, 'pending_review', ${input.createdBy}, ${tx.json(rows as never)})`;
    if (inserts.length > 0) await tx`insert into ses_blueprints ${tx(inserts as never)}`;
    return batchReport(tx, batchId);
  })) as BatchReport;
}
