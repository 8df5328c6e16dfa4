import type { ContentRole } from '../queries/catalogTypes';
import { contentHash } from './hash';

/**
 * What makes two versions "the same content", per entity. The hash covers what a student or a rule sees,
 * never bookkeeping (ids, status, batch, source). An item's passage is its resolved passage version id, so
 * a new passage version makes a new item version too.
 */

export interface ItemContent {
  contentRole: ContentRole;
  grade: number;
  subSkillId: string;
  itemPattern: string;
  measureCode: string | null;
  formPosition: number | null;
  trainingLevel: number | null;
  bridgeTargetSkillId: string | null;
  passageId: string | null;
  stemAr: string;
  options: { key: string; textAr: string }[];
  correctOptionKey: string;
  hintAr: string | null;
  explanationAr: string | null;
}

export const itemHash = (c: ItemContent) => contentHash({ kind: 'item', ...c });

export const passageHash = (c: { grade: number; titleAr: string; bodyAr: string }) =>
  contentHash({ kind: 'passage', ...c });

export const promptHash = (c: { subSkillId: string; tier: number; promptAr: string }) =>
  contentHash({ kind: 'scaffold_prompt', ...c });

/** A form is its cell and its items in (measure, position) order; a changed item is a changed form. */
export const formHash = (c: { grade: number; window: string; items: (ItemContent & { externalId: string })[] }) =>
  contentHash({
    kind: 'screening_form',
    grade: c.grade,
    window: c.window,
    items: [...c.items].sort(
      (a, b) =>
        (a.measureCode ?? '').localeCompare(b.measureCode ?? '') || (a.formPosition ?? 0) - (b.formPosition ?? 0),
    ),
  });

/** Passage word count: whitespace-separated tokens. */
export const wordCountOf = (text: string) => text.trim().split(/\s+/u).filter(Boolean).length;
