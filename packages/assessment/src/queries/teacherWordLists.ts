import { operationalWordLists, type WordListView } from '@qiraa/content';
import type { AnySql } from '@qiraa/db';
import { permissionDenied } from '@qiraa/http-kit';
import { type Caller, studentClassForTeacher, studentReach } from '@qiraa/identity';
import { defaultWindowOn, type ScreeningWindow } from '../engine/calendar';
import { wordListCellOf } from './cellMeasure';
import { STAFF_REACH } from './staffReach';
import { windowCalendarState } from './windowState';

/** A list as a teacher assesses with it. */
async function teacherViewOf(sql: AnySql, list: WordListView) {
  return {
    id: list.id,
    externalId: list.externalId,
    version: list.version,
    scope: list.scope,
    grade: list.grade,
    skillId: list.skillId,
    skillLabelAr: list.skillLabelAr,
    cell: await wordListCellOf(sql, list.skillId),
    words: list.words,
    wordCount: list.wordCount,
    timing: list.timing,
    wordsPerRow: list.wordsPerRow,
    readingNoteAr: list.readingNoteAr,
    assessmentWindow: list.window,
  };
}

/** The child's class the view is for: the caller's own class with the child first, then the newest. */
const childClass = (sql: AnySql, caller: Caller, studentId: number) =>
  studentClassForTeacher(sql, studentId, caller.userId, false);

/**
 * GET /api/word-lists. Without a child: every operational list of the caller's organization (its schools'
 * too) and the global ones. With `studentId`: the lists of the child's grade served at the child's school in
 * the child's window (the open one, else the page's default window), window lists first, then all-window lists.
 */
/** `now`: the route's `deps.clock` reading; the child's window (open, else the default one) is the one at it. */
export async function teacherWordLists(sql: AnySql, caller: Caller, studentId: number | undefined, now: Date) {
  if (studentId === undefined) {
    const lists = await operationalWordLists(sql, { organizationId: caller.organizationId });
    return {
      studentId: null,
      grade: null,
      window: null,
      windowOpen: null,
      lists: await Promise.all(lists.map((l) => teacherViewOf(sql, l))),
    };
  }
  const reached = await studentReach(sql, caller, studentId);
  if (!reached.reach || !STAFF_REACH.includes(reached.reach)) throw permissionDenied('staff who reach the child');
  const cls = await childClass(sql, caller, studentId);
  if (!cls) return { studentId, grade: null, window: null, windowOpen: false, lists: [] };
  const state = await windowCalendarState(sql, cls.organizationId, cls.academicYear, now);
  const window: ScreeningWindow = state.openWindow ?? defaultWindowOn(state.windows, state.today);
  const lists = (
    await operationalWordLists(sql, { organizationId: cls.organizationId, schoolId: cls.schoolId, grade: cls.grade })
  ).filter((l) => l.window === null || l.window === window);
  // Stable: within each group the content order (grade, skill, scope, external id) stays.
  const ordered = [...lists.filter((l) => l.window !== null), ...lists.filter((l) => l.window === null)];
  return {
    studentId,
    grade: cls.grade,
    window,
    windowOpen: state.openWindow !== null,
    lists: await Promise.all(ordered.map((l) => teacherViewOf(sql, l))),
  };
}
