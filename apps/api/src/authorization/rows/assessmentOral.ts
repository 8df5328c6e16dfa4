import { randomUUID } from 'node:crypto';
import type { World } from '@qiraa/app/testing';
import { insertPassage } from '@qiraa/content/testing';
import { authenticated, type MatrixContext, type MatrixRow, MISSING, REFUSED, type Target } from '../matrixTypes';
import { classFor } from './identityCore';

/** Grade 2 familiar words (voweled): 15, the cell's minimum. */
const WORDS = [
  'بَيْت',
  'قَلَم',
  'شَمْس',
  'وَرْدَة',
  'كِتَاب',
  'بَاب',
  'سَمَك',
  'جَمَل',
  'قَمَر',
  'نَهْر',
  'شَجَرَة',
  'تُفَّاح',
  'مَدْرَسَة',
  'حَدِيقَة',
  'سَيَّارَة',
];
const ACADEMIC_YEAR = '2026-2027';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Fixture {
  passageId: string;
  wordListId: string;
  /** A student of the other teacher's class (organization A): sameOrg for the class teacher. */
  sameOrgStudentId: number;
}

async function inject(ctx: MatrixContext, token: string, url: string, payload: object, status = 201) {
  const res = await ctx.t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== status) throw new Error(`fixture POST ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * Once per world: BOY open in both organizations (a stored calendar around today), a global grade 2 passage,
 * a global grade 2 BOY word list, and a student of the other teacher's class.
 */
const fixtures = new WeakMap<World, Promise<Fixture>>();
function fixtureOf(ctx: MatrixContext): Promise<Fixture> {
  let fixture = fixtures.get(ctx.world);
  if (!fixture) {
    fixture = (async () => {
      const sql = ctx.t.db.sql;
      for (const org of [ctx.world.a.id, ctx.world.b.id]) {
        for (const [window, start] of [
          ['BOY', -5],
          ['MOY', 10],
          ['EOY', 30],
        ] as const) {
          await sql`
            insert into asm_window_calendars (organization_id, academic_year, evidence_window, starts_on, ends_on)
            values (${org}, ${ACADEMIC_YEAR}, ${window}, ${day(start)}, ${day(start + 10)})
            on conflict do nothing`;
        }
      }
      const passageId = await insertPassage(sql, { grade: 2 });
      const list = await inject(ctx, ctx.world.superToken, '/api/admin/word-lists', {
        externalId: `matrix-oral-${process.pid}`,
        grade: 2,
        skillId: 'familiar_word_reading',
        window: 'BOY',
        words: WORDS,
      });
      const student = await inject(ctx, ctx.world.superToken, `/api/classes/${classFor(ctx, 'sameOrg')}/students`, {
        fullNameAr: 'طالب',
      });
      return { passageId, wordListId: list.id, sameOrgStudentId: student.studentId };
    })();
    fixtures.set(ctx.world, fixture);
  }
  return fixture;
}

/** The child of each target, and the teacher who holds it. */
async function childOf(ctx: MatrixContext, target: Target) {
  const f = await fixtureOf(ctx);
  const { a, b } = ctx.world;
  if (target === 'own') return { studentId: a.studentId, teacherToken: a.teacherToken };
  if (target === 'sameOrg') return { studentId: f.sameOrgStudentId, teacherToken: a.otherTeacherToken };
  if (target === 'otherOrg') return { studentId: b.studentId, teacherToken: b.teacherToken };
  return { studentId: MISSING.user, teacherToken: a.teacherToken };
}

/** A fresh oral reading of the target's child (stop and mark change it), started by that child's teacher. */
async function freshReading(ctx: MatrixContext, target: Target): Promise<string> {
  if (target === 'missing') return randomUUID();
  const { studentId, teacherToken } = await childOf(ctx, target);
  const { passageId } = await fixtureOf(ctx);
  return (await inject(ctx, teacherToken, '/api/orf/assessments', { studentId, passageId })).id;
}

const children: Target[] = ['own', 'sameOrg', 'otherOrg', 'missing'];

/**
 * Recording (start, mark, stop, a word-list read): a teacher of the child with RECORD_TEACHER_ACTION only. The
 * super-admin lacks it but reaches every organization, so another organization's child is 403 for it too.
 */
const record = (ok: number) =>
  authenticated(REFUSED, {
    super: { own: 403, sameOrg: 403, otherOrg: 403, missing: 404 },
    teacher: { own: ok, sameOrg: 403, otherOrg: 404, missing: 404 },
  });

/** Reading: staff who reach the child (teacher of its class, the school's principal, admin, manager, super). */
const staffRead = authenticated(REFUSED, {
  super: { own: 200, sameOrg: 200, otherOrg: 200, missing: 404 },
  admin: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
  teacher: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  principal: { own: 200, sameOrg: 403, otherOrg: 404, missing: 404 },
  manager: { own: 200, sameOrg: 200, otherOrg: 404, missing: 404 },
});

/** Oral reading (ORF) and word-list reads (packages/assessment, docs/assessment-oral.md). */
export const assessmentOralRows: MatrixRow[] = [
  {
    route: 'POST /api/orf/assessments',
    targets: children,
    request: async (ctx, target) => ({
      url: '/api/orf/assessments',
      body: { studentId: (await childOf(ctx, target)).studentId, passageId: (await fixtureOf(ctx)).passageId },
    }),
    expect: record(201),
  },
  {
    route: 'POST /api/orf/assessments/{id}/mark',
    targets: children,
    request: async (ctx, target) => ({
      url: `/api/orf/assessments/${await freshReading(ctx, target)}/mark`,
      body: { wordIndex: 0, mark: 'error' },
    }),
    expect: record(200),
  },
  {
    route: 'POST /api/orf/assessments/{id}/stop',
    targets: children,
    request: async (ctx, target) => ({
      url: `/api/orf/assessments/${await freshReading(ctx, target)}/stop`,
      body: { lastWordIndex: 5, elapsedSeconds: 30 },
    }),
    expect: record(200),
  },
  {
    route: 'GET /api/orf/assessments/{id}',
    targets: children,
    request: async (ctx, target) => ({ url: `/api/orf/assessments/${await freshReading(ctx, target)}` }),
    expect: staffRead,
  },
  {
    route: 'GET /api/word-lists',
    targets: children,
    request: async (ctx, target) => ({ url: `/api/word-lists?studentId=${(await childOf(ctx, target)).studentId}` }),
    expect: staffRead,
  },
  {
    route: 'POST /api/word-lists/assessments',
    targets: children,
    request: async (ctx, target) => ({
      url: '/api/word-lists/assessments',
      body: {
        studentId: (await childOf(ctx, target)).studentId,
        wordListId: (await fixtureOf(ctx)).wordListId,
        errorIndices: [1],
        last_word_index: 9,
        elapsed_seconds: 40,
      },
    }),
    expect: record(201),
  },
];
