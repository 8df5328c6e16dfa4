import type { AnySql } from '@qiraa/db';
import { schoolsOfOrganization } from '@qiraa/identity';
import { laterDuplicates } from '../engine/duplicateKeys';
import { wordListContentOf, wordListRowReason } from '../engine/wordListChecks';
import { wordListContentHash } from '../engine/wordListContentHash';
import { newContentId } from '../ids';
import type { WordListRow } from '../schemas/importBody';
import { mapInSlices } from './inSlices';
import { accepted, type Insert, type PlanContext, type PlannedRow, rejected } from './planTypes';
import { decideVersion, storedWordListVersions, wordListKey } from './storedVersions';

/** Schools a list may name: schools of the batch's organization (a global batch names none). */
async function schoolsOfScope(tx: AnySql, organizationId: string | null, schoolIds: string[]): Promise<Set<string>> {
  if (organizationId === null || schoolIds.length === 0) return new Set();
  return schoolsOfOrganization(tx, schoolIds, organizationId);
}

/**
 * Word-list rows: stored as `draft` in the batch's scope (global, organization, or a school of it) and
 * published by the batch approval. Versions share (organization, school, external id).
 */
export async function planWordLists(
  ctx: PlanContext,
  lists: readonly WordListRow[],
): Promise<{ rows: PlannedRow[]; inserts: Insert[] }> {
  const keyOf = (l: WordListRow) => wordListKey(l.school_id ?? null, l.external_id);
  const duplicates = laterDuplicates(lists.map(keyOf));
  const schoolIds = [...new Set(lists.map((l) => l.school_id).filter((s): s is string => s != null))];
  const schools = await schoolsOfScope(ctx.tx, ctx.organizationId, schoolIds);
  const stored = await storedWordListVersions(
    ctx.tx,
    ctx.organizationId,
    lists.map((l) => l.external_id),
  );
  const passes = (text: string) => ctx.filter.check(text, 'general').kind === 'pass';
  const checked = await mapInSlices(lists, (l, i) => {
    const content = wordListContentOf(l);
    const schoolId = l.school_id ?? null;
    const reason = duplicates.has(i)
      ? 'duplicate_external_id_in_batch'
      : schoolId !== null && !schools.has(schoolId)
        ? 'unknown_school'
        : wordListRowReason(content, ctx.catalog, passes);
    return { content, schoolId, reason, hash: wordListContentHash(content) };
  });
  const rows: PlannedRow[] = [];
  const inserts: Insert[] = [];
  lists.forEach((l, i) => {
    const { content, schoolId, reason, hash } = checked[i]!;
    const decision = reason === null ? decideVersion(stored.get(keyOf(l)), hash) : null;
    if (decision === null || decision.kind === 'pending_version_exists') {
      rows.push(rejected('word_list', i, l.external_id, reason ?? 'pending_version_exists'));
      return;
    }
    const id = decision.kind === 'unchanged' ? decision.id : newContentId('wl');
    rows.push(accepted('word_list', i, l.external_id, id, decision.kind === 'unchanged'));
    if (decision.kind === 'new') {
      inserts.push({
        id,
        external_id: l.external_id,
        scope: schoolId !== null ? 'school' : ctx.organizationId !== null ? 'organization' : 'global',
        organization_id: ctx.organizationId,
        school_id: schoolId,
        version: decision.version,
        grade: content.grade,
        skill_id: content.skillId,
        window_code: content.window,
        words: content.words,
        timed: content.timed,
        duration_seconds: content.durationSeconds,
        words_per_row: content.wordsPerRow,
        reading_note_ar: content.readingNoteAr,
        status: 'draft',
        content_hash: hash,
        import_batch_id: ctx.batchId,
        created_by: ctx.createdBy,
      });
    }
  });
  return { rows, inserts };
}
