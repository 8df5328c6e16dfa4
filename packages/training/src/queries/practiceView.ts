import { studentItemOf } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { currentSlot, type DayFold, exitOf, phaseOf } from '../engine/foldDay';
import { practiceItemOf } from './practiceItem';

/** The queue state every student response carries: phase, closing question, progress; no level, no rule. */
export function trainingStateOf(fold: DayFold | null) {
  const planned = fold
    ? fold.opened.exercises.reduce((n, e) => n + e.itemIds.length, 0) +
      fold.steps.reduce((n, s) => n + s.itemIds.length, 0) +
      (fold.opened.exit ? 1 : 0)
    : 0;
  const finished = fold
    ? new Set(fold.answers.map((a) => `${a.stepKind}:${a.supportStepId ?? a.exerciseIndex}:${a.itemId}`)).size
    : 0;
  return {
    phase: phaseOf(fold),
    exit: exitOf(fold),
    endReason: fold?.ended?.endReason ?? null,
    progress: { answered: finished, planned },
  };
}

/** The item being asked, in the student projection, with its step (the bridge's introduction prompt first). */
export async function servedOf(sql: AnySql, fold: DayFold | null, preferSkillId: string | null = null) {
  const slot = fold ? currentSlot(fold, preferSkillId) : null;
  if (!fold || !slot) return null;
  const row = await practiceItemOf(sql, slot.itemId);
  if (!row) return null;
  const step = slot.supportStepId ? fold.steps.find((s) => s.stepId === slot.supportStepId) : undefined;
  return {
    item: studentItemOf(row),
    step: {
      kind: slot.stepKind,
      startsBridge: slot.startsBridge,
      strategyPromptAr: slot.startsBridge ? (step?.promptAr ?? null) : null,
    },
    attempt: slot.attempt,
    hintAr: slot.stepKind === 'exit' ? null : row.hint_ar,
  };
}
