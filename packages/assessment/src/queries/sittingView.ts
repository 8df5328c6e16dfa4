import {
  type SectionKey,
  type ServedItemRow,
  type StudentItem,
  servedItemQuery,
  servedStudentItem,
  studentItemOf,
} from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { loadLanguageSafety, servedRewrite } from '@qiraa/language-safety';
import { servedPosition } from '../engine/foldSitting';
import type { SittingFold } from '../events/sittingTypes';

export interface StudentSessionStateView {
  sittingId: string;
  mode: SittingFold['started']['mode'];
  status: SittingFold['status'];
  endReason: SittingFold['endReason'];
  completed: boolean;
  sections: SittingFold['started']['sections'];
  state: { sectionKey: SectionKey | null };
  progress: { answered: number; total: number };
  item: StudentItem | null;
  passage: { id: string; titleAr: string; bodyAr: string } | null;
  breakBefore: boolean;
}

/**
 * What the student's screen gets: the sitting's sections and progress and, while it is open, the question
 * served now in the student projection (content's `studentItemOf`: never the correct option, the pattern, the
 * level or a rule) with its passage. Built only from the plan the sitting pinned. The question and its passage
 * pass the language-safety rule set in force when served (a refused text is served as the filter's rewrite;
 * docs/language-safety.md, "Served text"); an unavailable rule set is 503, nothing unfiltered. `prefetched` is the served
 * question's row when the caller already read it (the answer route reads the next one with its decision).
 */
export async function studentStateOf(
  sql: AnySql,
  fold: SittingFold,
  prefetched?: ServedItemRow | null,
): Promise<StudentSessionStateView> {
  const plan = fold.started.plan;
  const position = servedPosition(fold);
  const served = fold.status === 'in_progress' ? plan[position] : undefined;
  let item: StudentItem | null = null;
  let passage: StudentSessionStateView['passage'] = null;
  if (served) {
    const [row] =
      prefetched?.id === served.itemId
        ? [prefetched]
        : await sql<ServedItemRow[]>`${servedItemQuery(sql, served.itemId, served.passageId)}`;
    if (row) {
      const filter = await loadLanguageSafety(sql);
      const { passage_json: p, ...itemRow } = row;
      item = servedStudentItem(studentItemOf(itemRow), filter).item;
      if (p) {
        passage = { id: p.id, titleAr: servedRewrite(filter, p.title_ar), bodyAr: servedRewrite(filter, p.body_ar) };
      }
    }
  }
  return {
    sittingId: fold.attemptId,
    mode: fold.started.mode,
    status: fold.status,
    endReason: fold.endReason,
    completed: fold.status === 'done',
    sections: fold.started.sections,
    state: { sectionKey: served?.sectionKey ?? null },
    progress: { answered: fold.answers.size, total: plan.length },
    item,
    passage,
    breakBefore: served?.breakBefore ?? false,
  };
}
