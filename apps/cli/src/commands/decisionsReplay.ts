import { type DecisionReplayReport, type KeyReplay, replayDecisions } from '@qiraa/decisions';
import { Presets, SingleBar } from 'cli-progress';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';
import { monitoringDriftLines } from './monitoringDrift';
import { profileDriftLines } from './profileDrift';

export interface DecisionsReplayOptions {
  student?: string;
  all?: boolean;
}

function parseStudent(options: DecisionsReplayOptions): number | null {
  if ((options.student === undefined) === !options.all) {
    throw new CliError('give exactly one of --student <id> and --all', 2);
  }
  if (options.student === undefined) return null;
  const studentId = Number(options.student);
  if (!/^[1-9][0-9]*$/.test(options.student) || !Number.isSafeInteger(studentId)) {
    throw new CliError('--student must be a positive integer', 2);
  }
  return studentId;
}

const side = (value: unknown) => (value === undefined ? 'none' : JSON.stringify(value));

/** One key's drift, field by field; the evidence summary is named, not printed (it is long). */
function describe(k: KeyReplay): string {
  if (!k.derived || !k.stored) {
    return k.derived
      ? `stored none, derived decision ${k.derived.decisionId}`
      : `derived none, stored decision ${k.stored?.decisionId}`;
  }
  return k.drift
    .map((field) =>
      field === 'evidence' || field === 'evidenceEventIds' || field === 'voidEventIds'
        ? `${field} differs`
        : `${field} derived ${side(k.derived?.[field])} stored ${side(k.stored?.[field])}`,
    )
    .join('; ');
}

/**
 * `qiraa decisions replay --student <id> | --all`: the replay the admin route runs, for one student or every
 * student (and every id the read model or a decision stream names). A progress bar on stderr; on stdout one
 * line per drifting key and a summary. Exit code 1 when any key drifted, 0 otherwise.
 */
export async function decisionsReplayCommand(options: DecisionsReplayOptions): Promise<void> {
  const studentId = parseStudent(options);
  const { checked, drifted } = await withRuntime(async ({ sql, store }) => {
    let students: number[];
    if (studentId !== null) {
      const [known] = await sql`
        select 1 from users where id = ${studentId} and primary_persona = 'STUDENT'
        union all select 1 from dec_skill_status where student_id = ${studentId}
        union all select 1 from dec_trends where student_id = ${studentId}
        union all select 1 from dec_profiles where student_id = ${studentId} limit 1`;
      if (!known) throw new CliError(`no student ${studentId}`);
      students = [studentId];
    } else {
      const rows = await sql<{ id: string }[]>`
        select id from users where primary_persona = 'STUDENT'
        union select student_id from dec_skill_status
        union select student_id from dec_trends
        union select student_id from dec_profiles
        order by 1`;
      students = rows.map((r) => Number(r.id));
    }
    const bar = new SingleBar(
      {
        format: 'replay [{bar}] {percentage}% | {value}/{total} students | {eta_formatted} left',
        hideCursor: true,
        stream: process.stderr,
        noTTYOutput: true,
        notTTYSchedule: 1000,
      },
      Presets.shades_classic,
    );
    if (students.length > 0) bar.start(students.length, 0);
    const drifted: DecisionReplayReport[] = [];
    try {
      for (const [i, id] of students.entries()) {
        const report = await replayDecisions({ sql, store }, id);
        if (report.hasDrift) drifted.push(report);
        bar.update(i + 1);
      }
    } finally {
      if (students.length > 0) bar.stop();
    }
    return { checked: students.length, drifted };
  });

  let keys = 0;
  for (const r of drifted) {
    for (const k of r.keys.filter((key) => key.drift.length > 0)) {
      keys++;
      console.log(`drift: student ${r.studentId} ${k.academicYear} ${k.window} ${k.subSkillId}: ${describe(k)}`);
    }
    for (const line of [...monitoringDriftLines(r), ...profileDriftLines(r)]) {
      keys++;
      console.log(line);
    }
  }
  console.log(`students checked: ${checked}`);
  console.log(`with drift: ${drifted.length}`);
  console.log(`drifting keys: ${keys}`);
  if (drifted.length > 0) process.exitCode = 1;
}
