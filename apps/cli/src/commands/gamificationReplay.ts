import { DRIFT_KEYS, type ReplayReport, replayReport } from '@qiraa/gamification';
import { Presets, SingleBar } from 'cli-progress';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export interface GamificationReplayOptions {
  student?: string;
  all?: boolean;
  asOf?: string;
}

function parseOptions(options: GamificationReplayOptions): { studentId: number | null; asOf: Date } {
  if ((options.student === undefined) === !options.all) {
    throw new CliError('give exactly one of --student <id> and --all', 2);
  }
  let studentId: number | null = null;
  if (options.student !== undefined) {
    studentId = Number(options.student);
    if (!/^[1-9][0-9]*$/.test(options.student) || !Number.isSafeInteger(studentId)) {
      throw new CliError('--student must be a positive integer', 2);
    }
  }
  const asOf = options.asOf === undefined ? new Date() : new Date(options.asOf);
  if (Number.isNaN(asOf.getTime())) throw new CliError('--as-of must be an ISO 8601 date-time', 2);
  return { studentId, asOf };
}

const describe = (r: ReplayReport) =>
  DRIFT_KEYS.filter((key) => r.drift[key])
    .map((key) =>
      key === 'badges'
        ? `badges derived [${r.derived.badgeCodes.join(', ')}] stored [${r.stored.badgeCodes.join(', ')}]`
        : `${key} derived ${r.derived[key]} stored ${r.stored[key]}`,
    )
    .join('; ');

/**
 * `qiraa gamification replay --student <id> | --all [--as-of <iso>]`: the replay the admin route runs, for
 * one student or every student with a ledger. A progress bar on stderr; on stdout one line per student
 * with drift and a summary. Exit code 1 when any drift is found, 0 otherwise, so operators can script it.
 */
export async function gamificationReplayCommand(options: GamificationReplayOptions): Promise<void> {
  const { studentId, asOf } = parseOptions(options);
  const { checked, drifted } = await withRuntime(async ({ sql, store }) => {
    let students: number[];
    if (studentId !== null) {
      const [known] = await sql`
        select 1 from users where id = ${studentId} and primary_persona = 'STUDENT'
        union all select 1 from gam_mastery_events where student_id = ${studentId} limit 1`;
      if (!known) throw new CliError(`no student ${studentId}`);
      students = [studentId];
    } else {
      // Every student, and every id a ledger row names (a row for a non-student is drift too).
      const rows = await sql<{ id: string }[]>`
        select id from users where primary_persona = 'STUDENT'
        union select student_id from gam_mastery_events
        union select student_id from gam_xp_ledger
        union select student_id from gam_badge_awards
        order by 1`;
      students = rows.map((r) => Number(r.id));
    }

    const bar = new SingleBar(
      {
        format: 'replay [{bar}] {percentage}% | {value}/{total} students | {eta_formatted} left',
        hideCursor: true,
        // Progress goes to stderr so stdout stays clean for scripts; off a terminal it prints a line a second.
        stream: process.stderr,
        noTTYOutput: true,
        notTTYSchedule: 1000,
      },
      Presets.shades_classic,
    );
    if (students.length > 0) bar.start(students.length, 0);
    const drifted: ReplayReport[] = [];
    for (const [i, id] of students.entries()) {
      const report = await replayReport({ sql, store }, id, asOf);
      if (report.hasDrift) drifted.push(report);
      bar.update(i + 1);
    }
    if (students.length > 0) bar.stop();
    return { checked: students.length, drifted };
  });

  for (const r of drifted) console.log(`drift: student ${r.studentId}: ${describe(r)}`);
  console.log(`as of ${asOf.toISOString()}`);
  console.log(`students checked: ${checked}`);
  console.log(`with drift: ${drifted.length}`);
  for (const key of DRIFT_KEYS) console.log(`  ${key}: ${drifted.filter((r) => r.drift[key]).length}`);
  if (drifted.length > 0) process.exitCode = 1;
}
