import { type ItemRowDb, itemColumns, type SectionKey, type StudentItem, studentItemOf } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { servedPosition } from './foldSitting';
import type { SittingFold } from './sittingTypes';

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
 * level or a rule) with its passage. Built only from the plan the sitting pinned.
 */
export async function studentStateOf(sql: AnySql, fold: SittingFold): Promise<StudentSessionStateView> {
  const plan = fold.started.plan;
  const position = servedPosition(fold);
  const served = fold.status === 'in_progress' ? plan[position] : undefined;
  let item: StudentItem | null = null;
  let passage: StudentSessionStateView['passage'] = null;
  if (served) {
    const [row] = await sql<ItemRowDb[]>`select ${itemColumns(sql)} from content_items where id = ${served.itemId}`;
    if (row) item = studentItemOf(row);
    if (served.passageId) {
      const [p] = await sql<{ id: string; title_ar: string; body_ar: string }[]>`
        select id, title_ar, body_ar from content_passages where id = ${served.passageId}`;
      if (p) passage = { id: p.id, titleAr: p.title_ar, bodyAr: p.body_ar };
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
