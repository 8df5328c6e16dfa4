import type { World } from '@qiraa/app/testing';
import { insertPassage } from '@qiraa/content/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';

/**
 * The printed sheets (packages/assessment, docs/assessment-sheets.md). Both answer a PDF on 200; the matrix
 * reads a JSON body only from error answers, so a binary 200 needs nothing special.
 */

const MISSING_LIST = 'wl_AAAAAAAAAAAAAA';
const WORDS = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب'];

interface SheetFixtures {
  lists: Record<'own' | 'sameOrg' | 'otherOrg', string>;
  passageId: string;
  /** A child enrolled in organization A's other class (taught by the other teacher). */
  otherClassStudentId: number;
}

// Read-only routes: one set of fixtures per world serves every (caller, target).
const fixtures = new WeakMap<World, Promise<SheetFixtures>>();
function sheetFixtures(ctx: MatrixContext): Promise<SheetFixtures> {
  let found = fixtures.get(ctx.world);
  if (!found) {
    found = (async () => {
      const sql = ctx.t.db.sql;
      const list = async (organizationId: string | null) => {
        const id = `wl_mx${ctx.unique()}`;
        await sql`
          insert into content_word_lists (id, external_id, scope, organization_id, version, grade, skill_id,
                                          window_code, words, timed, duration_seconds, status, content_hash)
          values (${id}, ${`matrix-sheet-${id}`}, ${organizationId === null ? 'global' : 'organization'},
                  ${organizationId}, 1, 1, 'familiar_word_reading', 'BOY', ${sql.array(WORDS, 1009)}, true, 60,
                  'operational', ${`hash-${id}`})`;
        return id;
      };
      const student = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/users',
        headers: { authorization: `Bearer ${ctx.world.superToken}` },
        payload: { primaryPersona: 'STUDENT', fullNameAr: 'ليلى', classId: ctx.world.a.otherClassId },
      });
      if (student.statusCode !== 201) throw new Error(`fixture student: ${student.statusCode} ${student.body}`);
      return {
        lists: { own: await list(ctx.world.a.id), sameOrg: await list(null), otherOrg: await list(ctx.world.b.id) },
        passageId: await insertPassage(sql, { grade: 1 }),
        otherClassStudentId: student.json().id,
      };
    })();
    fixtures.set(ctx.world, found);
  }
  return found;
}

/** own: organization A's list; sameOrg: a global list (every organization prints it); otherOrg: B's. */
async function sheetUrl(ctx: MatrixContext, target: Target) {
  const id = target === 'missing' ? MISSING_LIST : (await sheetFixtures(ctx)).lists[target as 'own'];
  return { url: `/api/word-lists/${id}/sheet.pdf` };
}

/**
 * own: the teacher's class and its child; sameOrg: A's other class (another teacher's) and its child;
 * otherOrg: organization B's class and child; missing: a class that does not exist. The passage is global.
 */
async function readingUrl(ctx: MatrixContext, target: Target) {
  const f = await sheetFixtures(ctx);
  const { a, b } = ctx.world;
  const [classId, studentId] =
    target === 'own'
      ? [a.classId, a.studentId]
      : target === 'sameOrg'
        ? [a.otherClassId, f.otherClassStudentId]
        : target === 'otherOrg'
          ? [b.classId, b.studentId]
          : [MISSING.class, a.studentId];
  return { url: `/api/classes/${classId}/students/${studentId}/reading-sheet.pdf?passageId=${f.passageId}` };
}

const targets: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];
const printsList = { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 } as const;

export const assessmentSheetRows: MatrixRow[] = [
  {
    route: 'GET /api/word-lists/{id}/sheet.pdf',
    targets,
    request: sheetUrl,
    // The adults who assess: teachers (RECORD_TEACHER_ACTION) and back office (RUN_BACKOFFICE).
    expect: authenticated(REFUSED, {
      super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
      admin: printsList,
      teacher: printsList,
    }),
  },
  {
    route: 'GET /api/classes/{classId}/students/{studentId}/reading-sheet.pdf',
    targets,
    request: readingUrl,
    // The class teacher only: the super-admin passes the tenant check everywhere but teaches no class.
    expect: authenticated(REFUSED, {
      super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
      teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
    }),
  },
];
