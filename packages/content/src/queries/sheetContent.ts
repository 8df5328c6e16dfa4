import type { AnySql } from '@qiraa/db';
import { DEFAULT_WORDS_PER_ROW } from '../rules/wordListRules';

/** An operational word list as a printed sheet needs it (the assessment context prints it). */
export interface SheetWordList {
  id: string;
  externalId: string;
  version: number;
  /** null: a global list. */
  organizationId: string | null;
  grade: number;
  skillId: string;
  skillLabelAr: string;
  words: string[];
  /** The list's own, or the default (spec Limits: 5) when it names none. */
  wordsPerRow: number;
}

/** The operational version with this id, or null (missing, draft or retired). Scope is the caller's to check. */
export async function operationalWordList(sql: AnySql, id: string): Promise<SheetWordList | null> {
  const [row] = await sql<(Omit<SheetWordList, 'wordsPerRow'> & { wordsPerRow: number | null })[]>`
    select wl.id, wl.external_id as "externalId", wl.version, wl.organization_id as "organizationId", wl.grade,
           wl.skill_id as "skillId", s.label_ar as "skillLabelAr", wl.words, wl.words_per_row as "wordsPerRow"
    from content_word_lists wl join content_skills s on s.id = wl.skill_id
    where wl.id = ${id} and wl.status = 'operational'`;
  return row ? { ...row, wordsPerRow: row.wordsPerRow ?? DEFAULT_WORDS_PER_ROW } : null;
}

/** A passage of the content bank as a printed reading sheet needs it. */
export interface SheetPassage {
  id: string;
  externalId: string;
  version: number;
  /** null: global content. */
  organizationId: string | null;
  grade: number;
  titleAr: string;
  bodyAr: string;
}

/** The operational passage with this id, or null (missing, pending review, declined or retired). */
export async function operationalPassage(sql: AnySql, id: string): Promise<SheetPassage | null> {
  const [row] = await sql<SheetPassage[]>`
    select id, external_id as "externalId", version, organization_id as "organizationId", grade,
           title_ar as "titleAr", body_ar as "bodyAr"
    from content_passages
    where id = ${id} and status = 'operational'`;
  return row ?? null;
}
