import { readFile } from 'node:fs/promises';
import { buildApp } from '@qiraa/app';
import { TEST_JWT_SECRET } from '@qiraa/app/testing';
import { CELL_STATUSES, PAGE_CELLS } from '@qiraa/assessment';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { postgresEventStore } from '@qiraa/eventstore';
import { registerFirstAdmin } from '@qiraa/identity';
import { projectionStatus } from '@qiraa/projections';
import { loadConfig, openRuntime } from '@qiraa/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCalendar } from './commands/demoWindowCalendar';
import { DEMO_PASSWORD } from './commands/seedDemo';
import { beginSeedRun } from './commands/seedDemoGuard';
import { monitoringPlan } from './commands/seedDemoMonitoring';
import { trainingPlan } from './commands/seedDemoTraining';
import { type CliRun, runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let first: CliRun;

beforeAll(async () => {
  db = await createTestDatabase(); // empty and migrated
  env = { DATABASE_URL: db.url };
  // A seed killed half-way before this one (SIGKILL, a power cut): it had begun its run and written a user and
  // an event. This run must put that back first (seedDemoGuard.ts), then seed as on an empty database.
  const conn = await db.sql.reserve();
  await beginSeedRun(conn, new Date('2026-11-01T08:00:00Z')).finally(() => conn.release());
  await registerFirstAdmin(db.sql, { email: 'half@killed.example', password: DEMO_PASSWORD, fullNameAr: 'نصف' });
  await postgresEventStore(db.sql).append('killed-1', [{ type: 'KilledSeedProbe', data: {} }]);
  // Under a loaded machine the seed (screening, probes, every child decided) takes a minute or more.
  // The seed runs as a real process; the file's later command lines run in this one (runCliInProcess.ts).
  first = await runCli(['seed-demo'], env, { timeoutMs: 240_000 });
}, 300_000);
type App = Awaited<ReturnType<typeof buildApp>>;
let served: { app: App; close(): Promise<void> } | undefined;
afterAll(async () => {
  await served?.close();
  await db.drop();
});

const count = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n;

/**
 * The real API on the seeded database: started by the first test that asks (after the first test checked that
 * the seed alone caught the read models up) and shared by the later ones, as one server serves every client.
 * Building an app compiles every route's schemas, which cost about a CPU-second per test when each built its own.
 */
async function withApp(work: (app: App) => Promise<void>) {
  if (!served) {
    const runtime = await openRuntime(
      loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
      { role: 'api' },
    );
    const app = await buildApp(runtime, { logLevel: 'silent' });
    served = {
      app,
      async close() {
        await app.close();
        await runtime.close();
      },
    };
  }
  await work(served.app);
}

interface PageCellView {
  status: string;
  attemptId: string | null;
  result: Record<string, unknown> | null;
  restarts: number;
}
interface TeacherPage {
  grade: number;
  window: string;
  windows: { window: string; open: boolean }[];
  blueprint: { status: string; measures: { measureCode: string }[] };
  summary: { enrolled: number; complete: Record<string, number> };
  students: { firstName: string; cells: Record<string, PageCellView> }[];
}

/**
 * Whether the seed dates progress-monitoring probes today: six weeks of them must fit in BOY before today
 * (seedDemoMonitoring.ts); early in the academic year it seeds none and says so.
 */
const seedDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Amman' }).format(new Date());
const seedCalendar = demoCalendar('2026-2027', seedDay);
const monitored =
  seedCalendar.kind === 'calendar' && monitoringPlan(seedCalendar.windows[0]!.startsOn, seedDay).kind === 'probes';
/** The two grade-2 children with weekly probes: their latest probe fills the oral-reading cell. */
const probed = monitored ? 'done' : 'not_started';

/** Whether four weeks of past training days fit in the academic year today (seedDemoTraining.ts). */
const trained = trainingPlan('2026-2027', seedDay).kind === 'days';

/** Per class, each child's statuses in PAGE_CELLS order: digital, oral_text, familiar words, pseudowords. */
const SEEDED: Record<number, Record<string, string[]>> = {
  1: {
    سارة: ['done', 'done', 'done', 'unavailable'],
    أحمد: ['done', 'done', 'done', 'unavailable'],
    ريم: ['done', 'in_progress', 'not_started', 'unavailable'],
    محمد: ['stopped', 'not_started', 'not_started', 'unavailable'],
    جود: ['in_progress', 'not_started', 'not_started', 'unavailable'],
    // The cluster twin of أحمد (seedDemo.ts): the same screening.
    هند: ['done', 'done', 'done', 'unavailable'],
  },
  2: {
    علي: ['done', 'done', 'done', 'done'],
    تالا: ['done', 'done', 'done', 'done'],
    زيد: ['done', 'done', 'restarted_pending', 'done'],
    لين: ['restarted_pending', probed, 'not_started', 'not_started'],
    كرم: ['done', probed, 'not_started', 'not_started'],
  },
};

describe('qiraa seed-demo', () => {
  it('puts back what a killed seed left, seeds with progress on stderr, exits 0 and leaves no read model behind', async () => {
    expect(first.code, first.stderr).toBe(0);
    const lines = first.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'seed-demo: the seed started 2026-11-01T08:00:00.000Z did not finish; putting the database back as it was before it',
    );
    expect(lines.slice(1, -1).map((l) => l.replace(/\] .*/, ']'))).toEqual(
      Array.from({ length: 12 }, (_, i) => `seed-demo [${i + 1}/12]`),
    );
    expect(lines.at(-1)).toMatch(/^seed-demo: done in [\d.]+ s$/);
    expect(await db.sql`select 1 from users where email = 'half@killed.example'`).toEqual([]);
    expect(await db.sql`select 1 from es_events where event_type = 'KilledSeedProbe'`).toEqual([]);
    expect(await db.sql`select state from demo_seed_runs`).toEqual([{ state: 'done' }]);
    // No server ran: the seed caught every projection up itself, so a server started later has nothing to do.
    expect(first.stdout).toMatch(/Read models: all \d+ projections and \d+ reactions caught up to the log head/);
    const runtime = await openRuntime(loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), { role: 'cli' });
    try {
      const statuses = await projectionStatus(runtime, runtime.projector.projections);
      expect(statuses.filter((status) => status.lag > 0).map((status) => status.name)).toEqual([]);
    } finally {
      await runtime.close();
    }
  });

  it('creates one Jordanian organization with one school and two classes (grades 1 and 2, 2026-2027)', async () => {
    expect(await db.sql`select country, default_locale from organizations`).toEqual([
      { country: 'JO', default_locale: 'ar-JO' },
    ]);
    expect(await db.sql`select country from schools`).toEqual([{ country: 'JO' }]);
    expect(await db.sql`select grade, academic_year from classes order by grade`).toEqual([
      { grade: 1, academic_year: '2026-2027' },
      { grade: 2, academic_year: '2026-2027' },
    ]);
  });

  it('creates a user of every persona: super admin, organization admin, two teachers, principal, manager, parents', async () => {
    const rows = await db.sql<{ persona: string; scope: string; n: number }[]>`
      select primary_persona as persona, case when organization_id is null then 'super' else 'org' end as scope,
             count(*)::int as n
      from users group by 1, 2 order by 1, 2`;
    expect(rows).toEqual([
      { persona: 'ADMIN', scope: 'org', n: 1 },
      { persona: 'ADMIN', scope: 'super', n: 1 },
      { persona: 'MANAGER', scope: 'org', n: 1 },
      { persona: 'PARENT', scope: 'org', n: 3 },
      { persona: 'PRINCIPAL', scope: 'org', n: 1 },
      // 11: the sixth grade-1 child (هند, the twin of أحمد's evidence that forms the seed's cluster).
      { persona: 'STUDENT', scope: 'org', n: 11 },
      { persona: 'TEACHER', scope: 'org', n: 2 },
    ]);
  });

  it('gives each class its own teacher and five students (six in grade 1) with quickCodes 01-0n and Arabic names', async () => {
    const perClass = await db.sql<{ grade: number; teachers: number; codes: string[]; arabic: boolean }[]>`
      select c.grade,
             (select count(*)::int from class_teachers t where t.class_id = c.id) as teachers,
             array_agg(s.quick_code order by s.quick_code) as codes,
             bool_and(u.full_name_ar ~ '^[\u0600-\u06FF ]+$') as arabic
      from classes c join class_students s on s.class_id = c.id and s.active join users u on u.id = s.student_user_id
      group by c.id, c.grade order by c.grade`;
    const codes = ['01', '02', '03', '04', '05'];
    expect(perClass).toEqual([
      // Grade 1 has a sixth child (هند, quickCode 06) who forms the seed's cluster with أحمد.
      { grade: 1, teachers: 1, codes: [...codes, '06'], arabic: true },
      { grade: 2, teachers: 1, codes, arabic: true },
    ]);
    expect(await count(db.sql`select count(distinct teacher_user_id)::int as n from class_teachers`)).toBe(2);
  });

  it('links every parent to at least one child', async () => {
    const unlinked = db.sql<{ n: number }[]>`
      select count(*)::int as n from users p
      where p.primary_persona = 'PARENT' and not exists (select 1 from parent_students l where l.parent_user_id = p.id)`;
    expect(await count(unlinked)).toBe(0);
    expect(await count(db.sql`select count(*)::int as n from parent_students`)).toBeGreaterThanOrEqual(3);
  });

  it('gives every student a mastery history with XP, days and at least one badge', async () => {
    const perStudent = await db.sql<{ events: number; xp: number; badges: number; days: number }[]>`
      select (select count(*) from gam_mastery_events m where m.student_id = u.id)::int as events,
             (select coalesce(sum(amount), 0) from gam_xp_ledger x where x.student_id = u.id)::int as xp,
             (select count(*) from gam_badge_awards b where b.student_id = u.id)::int as badges,
             (select count(*) from gam_student_days d where d.student_id = u.id)::int as days
      from users u where u.primary_persona = 'STUDENT'`;
    expect(perStudent).toHaveLength(11); // 11 with هند (the cluster twin)
    for (const s of perStudent) {
      expect(s.events).toBeGreaterThan(0);
      expect(s.xp).toBeGreaterThan(0);
      expect(s.badges).toBeGreaterThan(0);
    }
    expect(new Set(perStudent.map((s) => s.events)).size).toBeGreaterThan(1);
    expect(first.stdout).toMatch(/Mastery history: \d+ mastery events/);
  });

  it('leaves a few notifications in the inbox of each demo adult, in the languages-safe rendering', async () => {
    const inboxes = await db.sql<{ email: string; n: number }[]>`
      select u.email, count(n.id)::int as n from users u left join notifications n on n.recipient_user_id = u.id
      where u.primary_persona <> 'STUDENT' group by u.email`;
    expect(inboxes.length).toBeGreaterThan(5);
    for (const inbox of inboxes) expect(inbox.n, inbox.email).toBeGreaterThan(0);
    const [students] =
      await db.sql`select count(*)::int as n from notifications n join users u on u.id = n.recipient_user_id where u.primary_persona = 'STUDENT'`;
    expect(students).toEqual({ n: 0 });
    expect(first.stdout).toMatch(/Notifications: \d+ in the inboxes/);
  });

  it('imports the demo content pack: a live BOY form per grade, word lists, training items, blueprint cells', async () => {
    const forms = await db.sql`
      select grade from content_screening_forms where status = 'operational' and window_code = 'BOY' order by grade`;
    expect(forms).toEqual([{ grade: 1 }, { grade: 2 }, { grade: 3 }, { grade: 4 }]);
    const [content] = await db.sql<{ lists: number; training: number; pending: number; cells: number }[]>`
      select (select count(*) from content_word_lists where status = 'operational')::int as lists,
             (select count(*) from content_items where content_role = 'target_training' and status = 'operational')::int
               as training,
             (select count(*) from content_items where status <> 'operational')::int as pending,
             (select count(*) from content_diagnostic_blueprint_cells where organization_id is null)::int as cells`;
    expect(content).toEqual({ lists: 8, training: expect.any(Number), pending: 0, cells: 4 });
    expect(content!.training).toBeGreaterThanOrEqual(48);
    expect(first.stdout).toMatch(/Content: the demo pack \(content\/pack\), \d+ rows in \d+ approved import batches/);
  });

  it('opens BOY today and seeds a screening the teacher page of each class shows in every cell status', async () => {
    expect(first.stdout).toMatch(
      /^Assessment: BOY 2026-2027 open \(\d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d[^)]*\); digital sittings 8 done, 1 in progress, 1 stopped by an early close \(reopened\), 1 voided; 9 oral readings, 9 word-list reads, 3 voids;/m,
    );
    const classes = await db.sql<{ id: string; grade: number; email: string }[]>`
      select c.id, c.grade, u.email from classes c
      join class_teachers t on t.class_id = c.id join users u on u.id = t.teacher_user_id order by c.grade`;
    const pages: TeacherPage[] = [];
    await withApp(async (app) => {
      for (const cls of classes) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: cls.email, password: DEMO_PASSWORD },
        });
        expect(login.statusCode, login.body).toBe(200);
        const page = await app.inject({
          method: 'GET',
          url: `/api/teacher/classes/${cls.id}/taqyeem`,
          headers: { authorization: `Bearer ${login.json().accessToken}` },
        });
        expect(page.statusCode, page.body).toBe(200);
        pages.push(page.json());
      }
    });

    const seen = new Set<string>();
    for (const page of pages) {
      expect(page.window).toBe('BOY');
      expect(page.windows.find((w) => w.window === 'BOY')?.open).toBe(true);
      const statuses = Object.fromEntries(
        page.students.map((s) => [s.firstName, PAGE_CELLS.map((c) => s.cells[c]!.status)]),
      );
      expect(statuses, `grade ${page.grade}`).toEqual(SEEDED[page.grade]);
      for (const s of page.students) for (const c of PAGE_CELLS) seen.add(s.cells[c]!.status);
      // Grade 1: 4 with هند (the cluster twin), who sits the window like أحمد.
      expect(page.summary.complete.digital).toBe(page.grade === 1 ? 4 : 4);
    }
    expect([...seen].sort()).toEqual([...CELL_STATUSES].sort());

    // Grade 1 leaves pseudowords to MOY by the organization's own blueprint cell; grade 2 screens all four cells.
    const [grade1, grade2] = pages;
    expect(grade1!.blueprint.status).toBe('ok');
    expect(grade1!.blueprint.measures.map((m) => m.measureCode)).not.toContain('pseudowords_list');
    expect(grade2!.blueprint.measures.map((m) => m.measureCode)).toContain('pseudowords_list');

    // Results differ from child to child, and the reading read again after its void counts one restart.
    const cells = pages.flatMap((p) => p.students.flatMap((s) => PAGE_CELLS.map((c) => s.cells[c]!)));
    const done = cells.filter((c) => c.status === 'done');
    expect(done.every((c) => c.result !== null && c.attemptId !== null)).toBe(true);
    const digitalResults = pages.flatMap((p) =>
      p.students.filter((s) => s.cells.digital!.status === 'done').map((s) => JSON.stringify(s.cells.digital!.result)),
    );
    expect(new Set(digitalResults).size).toBeGreaterThan(2);
    const reread = grade2!.students.find((s) => s.firstName === 'تالا')!.cells.oral_text!;
    expect(reread).toMatchObject({ status: 'done', restarts: 1 });
    const stopped = cells.find((c) => c.status === 'stopped')!;
    expect(await db.sql`select end_reason from asm_attempts where attempt_id = ${stopped.attemptId}`).toEqual([
      { end_reason: 'window_closed' },
    ]);
  });

  it('decides the seeded evidence and earns mastery events from it, the decision id as engine event id', async () => {
    const earned = await db.sql<{ source_kind: string; stream_id: string; event_type: string; xp: number }[]>`
      select m.source_kind, e.stream_id, e.event_type,
             (select coalesce(sum(x.amount), 0) from gam_xp_ledger x where x.mastery_event_id = m.id)::int as xp
      from gam_mastery_events m join es_events e on e.event_id::text = m.engine_event_id
      where e.stream_id like 'decision-%'`;
    expect(earned.length).toBeGreaterThanOrEqual(1);
    // The grade-2 child who read the passage again, more fluently, later in the window: a higher band.
    const band = earned.find((m) => m.source_kind === 'band_progression');
    expect(band).toMatchObject({ event_type: 'BandProgressionDecided' });
    expect(band!.xp).toBeGreaterThanOrEqual(25);
    expect(await count(db.sql`select count(*)::int as n from dec_skill_status`)).toBeGreaterThan(10);
    expect(first.stdout).toMatch(
      new RegExp(
        `Decisions: \\d+ skill statuses decided from that evidence; ${earned.length} mastery events earned from ` +
          'real evidence \\(\\d+ XP',
      ),
    );
  });

  /** A seeded grade-2 child's id, by first name. */
  const childId = async (firstName: string) => {
    const [row] = await db.sql<{ id: string }[]>`
      select id::text from users where primary_persona = 'STUDENT' and full_name_ar like ${`${firstName} %`}`;
    return Number(row!.id);
  };
  /** A response's JSON body, as parsed. */
  type Body = ReturnType<JSON['parse']>;
  /** teacher2 (grade 2) through the real API. */
  async function asTeacher2(work: (get: (url: string) => Promise<{ status: number; body: Body }>) => Promise<void>) {
    await withApp(async (app) => {
      const login = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'teacher2@qiraa-demo.example', password: DEMO_PASSWORD },
      });
      expect(login.statusCode, login.body).toBe(200);
      const headers = { authorization: `Bearer ${login.json().accessToken}` };
      await work(async (url) => {
        const res = await app.inject({ method: 'GET', url, headers });
        return { status: res.statusCode, body: res.json() };
      });
    });
  }

  it('shows real decisions on the skill-status route: statuses with their rule ids and the pinned rule set', async () => {
    const karam = await childId('كرم');
    await asTeacher2(async (get) => {
      const res = await get(`/api/sse/students/${karam}/skill-status`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ studentId: karam, academicYear: '2026-2027', window: 'BOY' });
      const rows = res.body.rows as { status: string | null; adrRuleId: string | null; ssrRuleId: string | null }[];
      expect(rows.length).toBeGreaterThan(1);
      for (const row of rows) expect(row).toMatchObject({ ruleSetVersion: 'v1', decisionId: expect.any(String) });
      const decided = rows.filter((r) => r.status !== null);
      expect(decided.length).toBeGreaterThan(0);
      for (const row of decided)
        expect(row).toMatchObject({ adrRuleId: expect.any(String), ssrRuleId: expect.any(String) });
    });
  });

  it('prints what progress monitoring seeded (or why none, early in the year)', () => {
    expect(first.stdout).toMatch(
      monitored
        ? /^Progress monitoring: weekly oral-reading probes from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: كرم read [\d, ]+ words a minute .*Trends: 1 above_goal, \d+ do_not_decide_yet; open alerts: 1 acute_regression; 2 notifications/m
        : /^Progress monitoring: none seeded/m,
    );
  });

  it.skipIf(!monitored)(
    'decides a trend above the goal line from weekly probes dated in the past, and credits its XP to the decision id',
    async () => {
      const karam = await childId('كرم');
      let trendDecisionId = '';
      await asTeacher2(async (get) => {
        const res = await get(`/api/sse/students/${karam}/monitoring`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toMatchObject({ decision: 'above_goal', ruleId: 'PMR-02', doNotDecideYet: false });
        trendDecisionId = res.body.trendDecisionId;
        const probes = res.body.probes as { at: string }[];
        expect(probes).toHaveLength(7);
        // In the past, inside the seeded academic year.
        for (const p of probes) {
          expect(Date.parse(p.at)).toBeLessThan(Date.now());
          expect(p.at >= '2026-08-01').toBe(true);
        }
      });
      // The gamification ledger: XP whose mastery event's engine id is that trend decision's id.
      const credited = await db.sql<{ source_kind: string; amount: number; stream_id: string }[]>`
        select m.source_kind, x.amount, e.stream_id from gam_xp_ledger x
        join gam_mastery_events m on m.id = x.mastery_event_id
        join es_events e on e.event_id::text = m.engine_event_id
        where m.engine_event_id = ${trendDecisionId}`;
      expect(credited).toEqual([
        { source_kind: 'cbm_trend_above_goal', amount: expect.any(Number), stream_id: `decision-${karam}` },
      ]);
      expect(credited[0]!.amount).toBeGreaterThan(0);
    },
  );

  it.skipIf(!monitored)(
    'raises an acute_regression alert for a sharp drop and puts it in the class teacher’s inbox',
    async () => {
      const leen = await childId('لين');
      await asTeacher2(async (get) => {
        const monitoring = await get(`/api/sse/students/${leen}/monitoring`);
        expect(monitoring.status, JSON.stringify(monitoring.body)).toBe(200);
        // Five probes: too few for a trend (the safe stop), enough to judge the last one against the earlier four.
        expect(monitoring.body).toMatchObject({
          decision: null,
          safeStop: 'do_not_decide_yet',
          holdReason: 'too_few_probes',
        });
        expect(monitoring.body.alerts).toEqual([
          expect.objectContaining({ alertKind: 'acute_regression', status: 'open', ruleId: 'PMR-03' }),
        ]);
        const alertId = monitoring.body.alerts[0].alertId as string;

        const assigned = await get('/api/notifications?kind=student_alert_assigned');
        expect(assigned.status).toBe(200);
        const mine = (assigned.body.items as { payload: Record<string, unknown>; severity: string }[]).filter(
          (n) => n.payload.alertId === alertId,
        );
        expect(mine).toEqual([
          expect.objectContaining({
            severity: 'urgent',
            payload: expect.objectContaining({ studentId: String(leen) }),
          }),
        ]);
        const lifecycle = await get('/api/notifications?kind=cbm_alert_lifecycle');
        expect(
          (lifecycle.body.items as { payload: Record<string, unknown> }[])
            .filter((n) => n.payload.alertId === alertId)
            .map((n) => n.payload.lifecycle),
        ).toEqual(['opened']);
      });
    },
  );

  it('prints the training history it seeded (or why none, early in the year)', () => {
    expect(first.stdout).toMatch(
      trained
        ? /^Training: \d+ ended training days from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d .*open alerts: [1-9]\d* no_progress_at_level, [1-9]\d* support_review_suggested; [1-9]\d* notifications/m
        : /^Training: none seeded/m,
    );
  });

  it.skipIf(!trained)(
    'shows training levels, past training days and one alert of each kind in the class teacher’s view',
    async () => {
      const [ali, zaid, tala] = [await childId('علي'), await childId('زيد'), await childId('تالا')];
      const [cls] = await db.sql<{ id: string }[]>`select id from classes where grade = 2`;
      await asTeacher2(async (get) => {
        // علي got everything right: levels started from his screen seeds, then moved up (TLM-01).
        const levels = await get(`/api/training/students/${ali}/levels`);
        expect(levels.status, JSON.stringify(levels.body)).toBe(200);
        expect(levels.body.academicYear).toBe('2026-2027');
        const rows = levels.body.levels as { startedFrom: string; lastMove: { direction: string } | null }[];
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.some((r) => r.startedFrom === 'screen')).toBe(true);
        expect(rows.some((r) => r.lastMove?.direction === 'up')).toBe(true);

        // زيد's six ended days, all in the past, newest first or oldest first: only their set matters.
        const days = await get(`/api/practice/students/${zaid}/training-sessions`);
        expect(days.status, JSON.stringify(days.body)).toBe(200);
        const sessions = days.body.sessions as { date: string; ended: boolean; endReason: string }[];
        expect(sessions).toHaveLength(6);
        for (const d of sessions) {
          expect(d).toMatchObject({ ended: true, endReason: 'done' });
          expect(d.date < seedDay && d.date >= '2026-08-01').toBe(true);
        }

        // One alert of each kind in the class's list, each about the child the seed meant.
        const alerts = await get(`/api/training/alerts?classId=${cls!.id}`);
        expect(alerts.status, JSON.stringify(alerts.body)).toBe(200);
        const items = alerts.body.items as { kind: string; studentId: string | number; status: string }[];
        const of = (kind: string) => items.filter((a) => a.kind === kind).map((a) => Number(a.studentId));
        expect(of('no_progress_at_level')).toContain(zaid);
        expect(of('support_review_suggested')).toContain(tala);
      });
      // Both reached teacher2's inbox (the notifier ran in the seed).
      const kinds = await db.sql<{ kind: string }[]>`
        select distinct n.kind from notifications n join users u on u.id = n.recipient_user_id
        where u.email = 'teacher2@qiraa-demo.example' and n.source_entity_type = 'training_progress_alert'`;
      expect(kinds.map((k) => k.kind).sort()).toEqual(['training_no_progress', 'training_support_review_suggested']);
    },
    60_000,
  );

  it('replays every decision of the seed without drift: `qiraa decisions replay --all` exits 0', async () => {
    const replay = await runCliInProcess(['decisions', 'replay', '--all'], env);
    expect(replay.stdout).toMatch(/with drift: 0/);
    expect(replay.code).toBe(0);
  }, 150_000);

  it('prints every adult login, the demo password, each class code with its quickCodes, and a curl line', async () => {
    const emails = await db.sql<{ email: string }[]>`select email from users where email is not null`;
    for (const { email } of emails) expect(first.stdout).toContain(email);
    expect(first.stdout).toContain(DEMO_PASSWORD);
    for (const { login_code } of await db.sql<{ login_code: string }[]>`select login_code from classes`) {
      expect(first.stdout).toMatch(new RegExp(`class code ${login_code}.*quickCodes 01 `));
    }
    expect(first.stdout).toMatch(/curl -s -X POST http:\/\/localhost:\d+\/api\/auth\/login /);
    // The README's demo paragraph gives the same counts as the seed prints.
    const [, adults, students] = first.stdout.match(/(\d+) adults, (\d+) students\./)!;
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const demo = readme.slice(readme.indexOf('## Demo data'), readme.indexOf('## Walk-through'));
    expect(demo.replace(/\s+/g, ' ')).toContain(`${adults} adults:`);
    expect(demo.replace(/\s+/g, ' ')).toContain(`${students} students:`);
  });

  it('follows the README walk-through after the seed: the seeded super administrator signs in and creates', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const walk = readme.slice(readme.indexOf('## Walk-through'), readme.indexOf('## Configuration'));
    const [, email, password] = walk.match(/^EMAIL=(\S+) PASSWORD=(\S+)$/m)!;
    expect({ email, password }).toEqual({ email: 'super@qiraa-demo.example', password: DEMO_PASSWORD });
    const orgBody = JSON.parse(walk.match(/\$API\/organizations .*\\\n\s+-d '(\{.*\})'/)![1]!);
    await withApp(async (app) => {
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
      expect(login.statusCode, login.body).toBe(200);
      const auth = { authorization: `Bearer ${login.json().accessToken}` };
      const org = await app.inject({ method: 'POST', url: '/api/organizations', headers: auth, payload: orgBody });
      expect(org.statusCode, org.body).toBe(201);
      // What step 1 said before: registering on a seeded database is closed.
      const register = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          email: 'root@example.org',
          password: 'correct horse battery',
          fullNameAr: 'م',
          primaryPersona: 'ADMIN',
        },
      });
      expect(register.statusCode).toBe(403);
      expect(register.json()).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: expect.stringMatching(/registration is closed/),
      });
    });
  });

  it('seeds logins that work: an adult with the printed password, a student with class code and quickCode', async () => {
    await withApp(async (app) => {
      const [teacher] = await db.sql<{ email: string }[]>`
        select email from users where primary_persona = 'TEACHER' order by id limit 1`;
      const adult = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: teacher!.email, password: DEMO_PASSWORD },
      });
      expect(adult.statusCode, adult.body).toBe(200);
      const [cls] = await db.sql<{ login_code: string }[]>`select login_code from classes where grade = 1`;
      const student = await app.inject({
        method: 'POST',
        url: '/api/auth/student/quickcode',
        payload: { classCode: cls!.login_code, quickCode: '03' },
      });
      expect(student.statusCode, student.body).toBe(200);
    });
  });

  it('shows each demo parent their children’s growth through the parent portal, in phrases', async () => {
    await withApp(async (app) => {
      const parents = await db.sql<{ email: string; children: number }[]>`
        select p.email, count(l.*)::int as children from users p join parent_students l on l.parent_user_id = p.id
        where p.primary_persona = 'PARENT' group by p.email order by p.email`;
      expect(parents.length).toBe(3);
      for (const { email, children } of parents) {
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: DEMO_PASSWORD },
        });
        const headers = { authorization: `Bearer ${login.json().accessToken}` };
        const list = await app.inject({ url: '/api/parent/children', headers });
        expect(list.statusCode, list.body).toBe(200);
        expect(list.json()).toHaveLength(children);
        for (const child of list.json() as { childId: number }[]) {
          const growth = await app.inject({ url: `/api/parent/children/${child.childId}/growth`, headers });
          expect(growth.statusCode, growth.body).toBe(200);
          expect(growth.json().domains.length, `${email} ${growth.body}`).toBeGreaterThan(0);
          expect(growth.json().measures.length).toBeGreaterThan(0);
          const home = await app.inject({ url: `/api/parent/children/${child.childId}/recommendations`, headers });
          expect(home.json().halted, home.body).toBe(false);
          expect(home.body).not.toMatch(/[0-9\u0660-\u0669]/);
        }
      }
    });
  }, 60_000);

  it('recomputes each demo class’s clusters: one generation per class, pinned to rule set v1', async () => {
    const gens = await db.sql<{ class_id: string; rule_set_version: string }[]>`
      select class_id, rule_set_version from clu_generations order by class_id`;
    expect(gens).toHaveLength(2);
    expect(gens.every((g) => g.rule_set_version === 'v1')).toBe(true);
    expect(first.stdout).toMatch(/Clusters \(POST \/api\/cluster\/recompute\/\{classId\}, rule set v1\): /);
    // A real cluster from real evidence: هند answers the screening and re-diagnostics as أحمد does (seedDemo.ts).
    const clusters = await db.sql<{ class_id: string; cluster_key: string; names: string[] }[]>`
      select g.class_id, m.cluster_key, array_agg(u.full_name_ar order by u.full_name_ar) as names
      from clu_members m join clu_generations g using (generation_id) join users u on u.id = m.student_id
      group by 1, 2`;
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.names.length).toBeGreaterThanOrEqual(2);
    expect(clusters[0]!.names).toEqual(expect.arrayContaining(['أحمد العبادي', 'هند العتوم']));
  });

  it('has operational session blueprints and one delivered session, online and printed (docs/sessions.md)', async () => {
    expect(await count(db.sql`select count(*)::int as n from ses_blueprints where status = 'operational'`)).toBe(6);
    const sessions = await db.sql<{ status: string; delivery_mode: string; delivered_by: string }[]>`
      select status, delivery_mode, delivered_by from ses_sessions`;
    expect(sessions).toEqual([{ status: 'delivered', delivery_mode: 'mixed', delivered_by: 'deliver_mixed' }]);
    const media = await db.sql<{ medium: string; n: number }[]>`
      select medium, count(*)::int as n from ses_session_students
      where (medium = 'online' and online_queued_at is not null) or (medium = 'printable' and pdf_sha256 is not null)
      group by medium order by medium`;
    expect(media).toEqual([
      { medium: 'online', n: 4 }, // 4: هند, the grade-1 cluster twin, is a recipient too
      { medium: 'printable', n: 2 },
    ]);
    expect(first.stdout).toMatch(/Sessions: 6 operational blueprints/);
  });

  it('refuses a database that already has users: exit 1, a clear message, nothing added', async () => {
    const before = await count(db.sql`select count(*)::int as n from users`);
    const orgs = await count(db.sql`select count(*)::int as n from organizations`);
    const again = await runCliInProcess(['seed-demo'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already has users; seed-demo only seeds an empty database/);
    expect(await count(db.sql`select count(*)::int as n from users`)).toBe(before);
    expect(await count(db.sql`select count(*)::int as n from organizations`)).toBe(orgs);
  }, 60_000);
});
