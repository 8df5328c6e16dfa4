import type { AnySql } from '@qiraa/db';
import type { PendingQuery, Row as PgRow } from 'postgres';
import {
  DEFAULT_WORDS_PER_ROW,
  type WordListContent,
  type WordListScope,
  type WordListStatus,
} from '../rules/wordListRules';
import type { WindowCode } from './catalogTypes';

/** One version of a word list as the admin routes answer it. */
export interface WordListView {
  id: string;
  externalId: string;
  scope: WordListScope;
  organizationId: string | null;
  schoolId: string | null;
  version: number;
  status: WordListStatus;
  grade: number;
  skillId: string;
  skillLabelAr: string;
  window: WindowCode | null;
  words: string[];
  wordCount: number;
  timing: { timed: boolean; durationSeconds: number | null };
  wordsPerRow: number;
  readingNoteAr: string | null;
  assessmentsCount: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  retiredAt: string | null;
}

/** A stored version as the commands read it (content as stored: wordsPerRow null when the list names none). */
export interface WordListRecord {
  id: string;
  externalId: string;
  scope: WordListScope;
  organizationId: string | null;
  schoolId: string | null;
  version: number;
  status: WordListStatus;
  content: WordListContent;
  contentHash: string;
  publishedAt: Date | null;
}

export interface WordListRow {
  id: string;
  external_id: string;
  scope: WordListScope;
  organization_id: string | null;
  school_id: string | null;
  version: number;
  status: WordListStatus;
  grade: number;
  skill_id: string;
  skill_label_ar: string;
  window_code: WindowCode | null;
  words: string[];
  timed: boolean;
  duration_seconds: number | null;
  words_per_row: number | null;
  reading_note_ar: string | null;
  content_hash: string;
  assessments_count: number;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  retired_at: Date | null;
}

/** Every version matching `where` (a fragment on alias wl), with its skill label and use count. */
export function selectWordLists(sql: AnySql, where: PendingQuery<PgRow[]>) {
  return sql<WordListRow[]>`
    select wl.id, wl.external_id, wl.scope, wl.organization_id, wl.school_id, wl.version, wl.status, wl.grade,
           wl.skill_id, s.label_ar as skill_label_ar, wl.window_code, wl.words, wl.timed, wl.duration_seconds,
           wl.words_per_row, wl.reading_note_ar, wl.content_hash, wl.created_at, wl.updated_at, wl.published_at,
           wl.retired_at,
           (select count(*)::int from content_word_list_uses u where u.word_list_id = wl.id) as assessments_count
    from content_word_lists wl join content_skills s on s.id = wl.skill_id
    where ${where}
    order by wl.grade, s.ordinal, wl.window_code nulls last,
             case wl.scope when 'global' then 0 when 'organization' then 1 else 2 end,
             wl.organization_id nulls first, wl.school_id nulls first, wl.external_id, wl.version`;
}

export const contentOf = (r: WordListRow): WordListContent => ({
  grade: r.grade,
  skillId: r.skill_id,
  window: r.window_code,
  words: r.words,
  timed: r.timed,
  durationSeconds: r.duration_seconds,
  wordsPerRow: r.words_per_row,
  readingNoteAr: r.reading_note_ar,
});

export const recordOf = (r: WordListRow): WordListRecord => ({
  id: r.id,
  externalId: r.external_id,
  scope: r.scope,
  organizationId: r.organization_id,
  schoolId: r.school_id,
  version: r.version,
  status: r.status,
  content: contentOf(r),
  contentHash: r.content_hash,
  publishedAt: r.published_at,
});

export const viewOf = (r: WordListRow): WordListView => ({
  id: r.id,
  externalId: r.external_id,
  scope: r.scope,
  organizationId: r.organization_id,
  schoolId: r.school_id,
  version: r.version,
  status: r.status,
  grade: r.grade,
  skillId: r.skill_id,
  skillLabelAr: r.skill_label_ar,
  window: r.window_code,
  words: r.words,
  wordCount: r.words.length,
  timing: { timed: r.timed, durationSeconds: r.duration_seconds },
  wordsPerRow: r.words_per_row ?? DEFAULT_WORDS_PER_ROW,
  readingNoteAr: r.reading_note_ar,
  assessmentsCount: r.assessments_count,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  publishedAt: r.published_at?.toISOString() ?? null,
  retiredAt: r.retired_at?.toISOString() ?? null,
});

/** The current view of one version (undefined when unknown). */
export async function wordListViewById(sql: AnySql, id: string): Promise<WordListView | undefined> {
  const [row] = await selectWordLists(sql, sql`wl.id = ${id}`);
  return row && viewOf(row);
}
