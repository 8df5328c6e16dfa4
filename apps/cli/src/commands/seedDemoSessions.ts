import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Sql } from '@qiraa/db';
import { permissionsFor } from '@qiraa/identity';
import type { Clock } from '@qiraa/kernel';
import { acceptSession, approveBlueprintBatch, createSession, deliverMixed, importBlueprints } from '@qiraa/sessions';
import { CliError } from '../cliError';
import { DEMO_PACK_DIR } from './contentImport';
import type { DemoClass } from './seedDemoAssessment';

/** The blueprint the demo's grade-1 session is made from (content/pack/session-blueprints.json). */
const DEMO_BLUEPRINT = 'sb-g1-short-vowels-animals';

/**
 * The demo's sessions, through the sessions commands: the pack's blueprints imported as global content and
 * approved (operational), then one session of the grade-1 class from DEMO_BLUEPRINT, accepted mixed (the
 * first two children on paper, the rest online) and delivered: online slots queued, printed sheets made.
 * Returns the summary line.
 */
export async function seedDemoSessions(
  deps: { sql: Sql; clock: Clock },
  input: { organizationId: string; classes: readonly DemoClass[] },
): Promise<string> {
  const body = JSON.parse(await readFile(path.join(DEMO_PACK_DIR, 'session-blueprints.json'), 'utf8'));
  const report = await importBlueprints(deps, { organizationId: null, createdBy: null, body });
  if (report.counts.rejected > 0) throw new CliError(`demo blueprints refused: ${JSON.stringify(report.rows)}`);
  await approveBlueprintBatch(deps, { batchId: report.batchId, approvedBy: null });
  const cls = input.classes.find((c) => c.grade === 1);
  const blueprintId = report.rows.find((r) => r.externalId === DEMO_BLUEPRINT)?.blueprintId;
  if (!cls || !blueprintId)
    return `Sessions: ${report.rows.length} operational blueprints; no grade-1 class for a session.`;
  const teacher = {
    userId: cls.teacherId,
    persona: 'TEACHER' as const,
    organizationId: input.organizationId,
    schoolId: null,
    permissions: permissionsFor('TEACHER', input.organizationId),
  };
  const sessionId = await createSession(deps, teacher, { classId: cls.id, blueprintId }, deps.clock.now());
  await acceptSession(deps, teacher.userId, sessionId, {
    deliveryMode: 'mixed',
    printedStudentIds: cls.studentIds.slice(0, 2),
  });
  const delivered = await deliverMixed(deps, teacher.userId, sessionId);
  return (
    `Sessions: ${report.rows.length} operational blueprints (content/pack/session-blueprints.json); session ` +
    `${sessionId} of the grade-1 class ${delivered.status}: ${delivered.online.queued.length} children online, ` +
    `${delivered.printed.studentIds.length} on printed sheets (POST /api/sessions/${sessionId}/generate-pdfs ` +
    'as the class teacher gives the ZIP).'
  );
}
