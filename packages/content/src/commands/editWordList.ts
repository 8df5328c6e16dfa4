import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { ApiError, conflict, unprocessable } from '@qiraa/http-kit';
import type { Caller } from '@qiraa/identity';
import type { WordListCheck } from '../engine/validateWordList';
import { type TimingBody, timingOf } from '../engine/wordListBody';
import { wordListContentHash } from '../engine/wordListContentHash';
import { assertAccepted, isSecondLiveVersion } from '../engine/wordListErrors';
import type { WindowCode } from '../queries/catalogTypes';
import type { WordListContent } from '../rules/wordListRules';
import { wordListChecker } from './checkWordList';
import { insertWordListVersion } from './insertWordListVersion';
import { lockWordListVersions } from './lockWordListVersions';

/** PATCH body: the version the editor read, and the fields to replace (grade, skill, scope, externalId are fixed). */
export interface WordListPatch {
  ifVersion: number;
  words?: string[] | undefined;
  timing?: TimingBody | undefined;
  wordsPerRow?: number | null | undefined;
  readingNoteAr?: string | null | undefined;
  window?: WindowCode | null | undefined;
}

function patched(c: WordListContent, p: WordListPatch): WordListContent {
  const timing = p.timing === undefined ? { timed: c.timed, durationSeconds: c.durationSeconds } : timingOf(p.timing);
  return {
    ...c,
    ...timing,
    window: p.window === undefined ? c.window : p.window,
    words: p.words ?? c.words,
    wordsPerRow: p.wordsPerRow === undefined ? c.wordsPerRow : p.wordsPerRow,
    readingNoteAr: p.readingNoteAr === undefined ? c.readingNoteAr : p.readingNoteAr,
  };
}

/**
 * PATCH /api/admin/word-lists/{id}, the state table: a draft is edited in place (madeVersion null); an
 * operational version gives a new operational version and the source is retired in the same transaction; a
 * retired version gives a new draft version. Only the newest version of an externalId is edited (an older
 * one: 409 newer_version_exists), `ifVersion` must equal the version edited (412 stale), and a patch that
 * changes nothing is 422 no_change (it would only add a copy to the history).
 */
export async function editWordList(
  sql: Sql,
  caller: Caller,
  id: string,
  patch: WordListPatch,
): Promise<{ id: string; madeVersion: number | null; check: WordListCheck }> {
  const checker = await wordListChecker(sql);
  try {
    return await inTransaction(sql, async ({ sql: tx }) => {
      const locked = await lockWordListVersions(tx, caller, id);
      const { target, versions } = locked;
      if (patch.ifVersion !== target.version) {
        throw new ApiError(412, 'PRECONDITION_FAILED', `the list is at version ${target.version}`, { reason: 'stale' });
      }
      const newest = versions[versions.length - 1]!;
      if (newest.version > target.version) {
        throw conflict('newer_version_exists', `version ${newest.version} of this list exists; edit that one`);
      }
      const content = patched(target.content, patch);
      if (wordListContentHash(content) === wordListContentHash(target.content)) {
        throw unprocessable('no_change', 'the patch changes nothing in this version');
      }
      const place = { scope: target.scope, organizationId: target.organizationId, schoolId: target.schoolId };
      const operational = target.status === 'operational';
      const check = await checker.check(tx, { place, externalId: target.externalId, content, operational });
      assertAccepted(check);

      if (target.status === 'draft') {
        await tx`
          update content_word_lists
          set window_code = ${content.window}, words = ${tx.array(content.words)}::text[], timed = ${content.timed},
              duration_seconds = ${content.durationSeconds}, words_per_row = ${content.wordsPerRow},
              reading_note_ar = ${content.readingNoteAr}, content_hash = ${wordListContentHash(content)},
              updated_at = now()
          where id = ${target.id}`;
        return { id: target.id, madeVersion: null, check };
      }
      // Retire before inserting: the one-live index would refuse two operational versions even for a moment.
      if (operational) {
        await tx`
          update content_word_lists set status = 'retired', retired_at = now(), updated_at = now()
          where id = ${target.id}`;
      }
      const version = newest.version + 1;
      const newId = await insertWordListVersion(tx, {
        place,
        externalId: target.externalId,
        version,
        status: operational ? 'operational' : 'draft',
        content,
        sourceVersionId: target.id,
        createdBy: caller.userId,
      });
      return { id: newId, madeVersion: version, check };
    });
  } catch (error) {
    if (isSecondLiveVersion(error)) {
      throw conflict('another_version_operational', 'another version of this list is operational');
    }
    throw error;
  }
}
