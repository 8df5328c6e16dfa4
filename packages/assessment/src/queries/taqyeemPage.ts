import { loadCatalog, resolveBlueprintCell } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { activeClassFirstNames, type Caller, holds } from '@qiraa/identity';
import { openRefusal } from '../commands/windowCommands';
import { type BlueprintStatus, type PageMeasure, pageBlueprint } from '../engine/blueprintStatus';
import { defaultWindowOn, type ScreeningWindow } from '../engine/calendar';
import { cellView, type LatestAttempt, type StudentCells } from '../engine/cellStatus';
import { PAGE_CELLS, type PageCell } from '../events';
import type { PageClass } from './heldClass';
import { type OpenTrigger, type WindowStatus, windowCalendarState } from './windowState';

type PerCell<T> = Record<PageCell, T>;

export interface TaqyeemPage {
  classId: string;
  grade: number;
  academicYear: string;
  window: ScreeningWindow;
  windows: Pick<WindowStatus, 'window' | 'startsOn' | 'endsOn' | 'open'>[];
  windowState: { openTrigger: OpenTrigger | null; canOpen: boolean };
  blueprint: { status: BlueprintStatus; measures: PageMeasure[]; catalogVersion: string };
  summary: { enrolled: number; complete: PerCell<number>; remaining: PerCell<number> };
  dayPlan: PerCell<{ studentCount: number; minutesPerStudent: number; totalMinutes: number }>;
  students: { studentId: number; firstName: string; cells: StudentCells }[];
}

interface AttemptRow {
  student_id: string;
  cell: PageCell;
  attempt_id: string;
  status: LatestAttempt['status'];
  started_at: Date;
  ended_at: Date | null;
  voided_at: Date | null;
  result: Record<string, unknown> | null;
  restarts: string;
}

const perCell = <T>(f: (cell: PageCell) => T) => Object.fromEntries(PAGE_CELLS.map((c) => [c, f(c)])) as PerCell<T>;

/**
 * The teacher assessment page of a class and window (TdvTaqyeem). Set-based whatever the class size: the
 * calendar, the blueprint cell, the roster and one query over `asm_attempts` (the latest attempt per student
 * and cell, with the cell's void count, by window functions on the class index). Counts only.
 */
export async function taqyeemPage(
  sql: Sql,
  caller: Caller,
  cls: PageClass,
  asked: ScreeningWindow | undefined,
  at: Date = new Date(),
): Promise<TaqyeemPage> {
  const [calendar, catalog, roster] = await Promise.all([
    windowCalendarState(sql, cls.organizationId, cls.academicYear, at),
    loadCatalog(sql),
    activeClassFirstNames(sql, cls.id),
  ]);
  const window = asked ?? calendar.openWindow ?? defaultWindowOn(calendar.windows, calendar.today);
  const [cell, attempts] = await Promise.all([
    resolveBlueprintCell(sql, {
      organizationId: cls.organizationId,
      schoolId: cls.schoolId,
      grade: cls.grade,
      window,
    }),
    sql<AttemptRow[]>`
      select distinct on (a.student_id, a.cell)
             a.student_id, a.cell, a.attempt_id, a.status, a.started_at, a.ended_at, a.voided_at, a.result,
             count(*) filter (where a.void_id is not null) over (partition by a.student_id, a.cell) as restarts
      from asm_attempts a
      where a.class_id = ${cls.id} and a.academic_year = ${cls.academicYear} and a.evidence_window = ${window}
      order by a.student_id, a.cell, a.started_at desc, a.attempt_id desc`,
  ]);
  const blueprint = pageBlueprint(catalog, cls.grade, cell);

  const latest = new Map<string, LatestAttempt>();
  for (const a of attempts) {
    latest.set(`${a.student_id}/${a.cell}`, {
      attemptId: a.attempt_id,
      status: a.status,
      startedAt: a.started_at,
      endedAt: a.ended_at,
      voidedAt: a.voided_at,
      result: a.result,
      restarts: Number(a.restarts),
    });
  }
  const students = roster.map((s) => ({
    studentId: Number(s.student_id),
    firstName: s.first_name,
    cells: perCell((c) => cellView(latest.get(`${s.student_id}/${c}`), blueprint.cells.has(c))),
  }));

  const enrolled = students.length;
  const complete = perCell((c) => students.filter((s) => s.cells[c].status === 'done').length);
  const remaining = perCell((c) => (blueprint.cells.has(c) ? enrolled - complete[c] : 0));
  const selected = calendar.windows.find((w) => w.window === window)!;
  return {
    classId: cls.id,
    grade: cls.grade,
    academicYear: cls.academicYear,
    window,
    windows: calendar.windows.map(({ window: w, startsOn, endsOn, open }) => ({ window: w, startsOn, endsOn, open })),
    windowState: {
      openTrigger: selected.openTrigger,
      canOpen: holds(caller, 'MANAGE_ORG', 'RUN_BACKOFFICE') && openRefusal(calendar, window) === null,
    },
    blueprint: { status: blueprint.status, measures: blueprint.measures, catalogVersion: blueprint.catalogVersion },
    summary: { enrolled, complete, remaining },
    dayPlan: perCell((c) => ({
      studentCount: remaining[c],
      minutesPerStudent: blueprint.minutesPerStudent[c],
      totalMinutes: remaining[c] * blueprint.minutesPerStudent[c],
    })),
    students,
  };
}
