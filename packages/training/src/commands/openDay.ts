import { inTransaction } from '@qiraa/db';
import { randomEventId } from '@qiraa/eventstore';
import type { TrainingDayOpened } from '../engine/dayEvents';
import { type DayFold, foldDay } from '../engine/foldDay';
import { planDay } from '../engine/planDay';
import { TRAINING_DAY_OPENED } from '../events';
import type { Learner } from '../queries/learner';
import { targetItemsOf } from '../queries/trainingPool';
import type { TrainingRules } from '../rules/trainingRules';
import { appendDayEvents, type TrainingDeps } from './dayStream';
import { ensureLevels } from './ensureLevels';

/**
 * Opens today's training day: starts (or rebaselines) the child's levels, plans the exercises from the items
 * each level can serve and appends `TrainingDayOpened`. Null when no level can serve an item (nothing is
 * planned and no day is written; the levels started stay). A parallel opening loses on the one-open-day index
 * and the caller retries (it then finds the winner's day).
 */
export async function openDay(
  deps: TrainingDeps,
  learner: Learner,
  rules: TrainingRules,
  now: Date,
  schoolDay: string,
  /** A teacher's send in its window: its skill is planned first (so it is in the day and served first). */
  preferSkillId: string | null = null,
): Promise<DayFold | null> {
  return inTransaction(deps.sql, async (uow) => {
    const levels = await ensureLevels(deps.store, uow, learner, rules, now, schoolDay);
    const items = await targetItemsOf(uow.sql, learner, levels);
    const pools = levels.map((l) => ({
      skillId: l.skillId,
      level: l.level,
      levelId: l.levelId,
      measureCode: l.measureCode,
      itemIds: items.get(`${l.skillId}|${l.level}`) ?? [],
    }));
    const sent = pools.filter((p) => p.skillId === preferSkillId);
    const plan = planDay(rules, [...sent, ...pools.filter((p) => p.skillId !== preferSkillId)]);
    if (plan.exercises.length === 0) return null;
    const dayId = randomEventId();
    const data: TrainingDayOpened = {
      dayId,
      studentId: learner.studentId,
      organizationId: learner.organizationId,
      schoolDay,
      timeZone: learner.timeZone,
      academicYear: learner.academicYear,
      leveled: true,
      ruleVersion: rules.version,
      ...plan,
      openedAt: now.toISOString(),
    };
    const events = await appendDayEvents(deps.store, uow, dayId, 'no_stream', [
      { type: TRAINING_DAY_OPENED, data, metadata: { organizationId: learner.organizationId } },
    ]);
    return foldDay(events);
  });
}
