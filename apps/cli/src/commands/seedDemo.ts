import { ApiError } from '@qiraa/http-kit';
import {
  assignClassTeacher,
  type Caller,
  createClass,
  createOrganization,
  createSchool,
  createUser,
  enrollStudent,
  linkParent,
  type NewUser,
  permissionsFor,
  registerFirstAdmin,
  type StudentGender,
} from '@qiraa/identity';
import type { Runtime } from '@qiraa/runtime';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';
import { DEMO_PACK_DIR, importContentPack, packTotals } from './contentImport';
import { type DemoClass, demoAssessmentLine, seedDemoAssessment } from './seedDemoAssessment';
import { seedDemoClusters } from './seedDemoClusters';
import { demoDecisionsLines, seedDemoDecisions } from './seedDemoDecisions';
import { type SeedStep, seedAllOrNothing } from './seedDemoGuard';
import { type MonitoringChild, seedDemoMonitoring } from './seedDemoMonitoring';
import { seedDemoNotifications } from './seedDemoNotifications';
import { seedDemoParents } from './seedDemoParents';
import { seedDemoSessions } from './seedDemoSessions';
import { demoTrainingLine, seedDemoTraining } from './seedDemoTraining';
import { seedMasteryHistory } from './seedMasteryHistory';

/** The password of every demo adult. Demo data only: never seed a database that real people use. */
export const DEMO_PASSWORD = 'qiraa-demo-2026';
const DOMAIN = 'qiraa-demo.example';
const ACADEMIC_YEAR = '2026-2027';

type Adult = Exclude<NewUser, { primaryPersona: 'STUDENT' }>;

/**
 * Two classes, five children each, and a sixth grade-1 child (هند) who answers the screening as أحمد does, so
 * the two share a clusterKey and the seed forms a real cluster (docs/clusters.md); siblings share a family name
 * and a parent.
 */
const CLASSES = [
  {
    name: 'الصف الأول أ',
    grade: 1,
    teacher: { email: `teacher1@${DOMAIN}`, fullNameAr: 'ليلى العمري' },
    students: ['سارة الشريف', 'أحمد العبادي', 'ريم القيسي', 'محمد الرفاعي', 'جود المومني', 'هند العتوم'],
  },
  {
    name: 'الصف الثاني أ',
    grade: 2,
    teacher: { email: `teacher2@${DOMAIN}`, fullNameAr: 'خالد النسور' },
    students: ['علي الشريف', 'تالا الحسن', 'زيد الطراونة', 'لين المجالي', 'كرم البطاينة'],
  },
] as const;

/** The children's grammatical gender, so the demo shows each text form; جود is left unknown (neutral form). */
const GENDER: Readonly<Record<string, StudentGender>> = {
  'سارة الشريف': 'female',
  'أحمد العبادي': 'male',
  'ريم القيسي': 'female',
  'محمد الرفاعي': 'male',
  'علي الشريف': 'male',
  'تالا الحسن': 'female',
  'زيد الطراونة': 'male',
  'لين المجالي': 'female',
  'كرم البطاينة': 'male',
  'هند العتوم': 'female',
};

/** Each parent and the children (by name) they are linked to. */
const PARENTS = [
  { email: `parent1@${DOMAIN}`, fullNameAr: 'هالة الشريف', children: ['سارة الشريف', 'علي الشريف'] },
  { email: `parent2@${DOMAIN}`, fullNameAr: 'يوسف العبادي', children: ['أحمد العبادي'] },
  { email: `parent3@${DOMAIN}`, fullNameAr: 'نادية الحسن', children: ['تالا الحسن'] },
] as const;

interface LoginRow {
  persona: string;
  signIn: string;
  secret: string;
  name: string;
}

function table(rows: LoginRow[]): string {
  const head: LoginRow = { persona: 'persona', signIn: 'sign in with', secret: 'password / quickCode', name: 'name' };
  const all = [head, ...rows];
  const width = (key: keyof LoginRow) => Math.max(...all.map((r) => r[key].length));
  const line = (r: LoginRow) =>
    [r.persona.padEnd(width('persona')), r.signIn.padEnd(width('signIn')), r.secret.padEnd(width('secret')), r.name]
      .join('  ')
      .trimEnd();
  const rule = [width('persona'), width('signIn'), width('secret'), 4].map((n) => '-'.repeat(n)).join('  ');
  return [line(head), rule, ...rows.map(line)].join('\n');
}

/**
 * `qiraa seed-demo`: on an empty database only, one Jordanian organization with a school, two classes
 * (grades 1 and 2), a user of every persona, parents linked to children and the students with quickCodes,
 * all created through the contexts' own commands; the demo content pack; the classes' BOY screening,
 * decisions, monitoring, training, clusters and sessions; then prints how to sign in as each. Migrates first,
 * as the server does at start, so it works on a fresh data directory. All-or-nothing, with a line per step
 * on stderr (seedDemoGuard.ts; docs/operations.md, "Demo seed").
 */
export async function seedDemoCommand(): Promise<void> {
  await withRuntime(
    async (runtime) => {
      const started = performance.now();
      const say = (line: string) => process.stderr.write(`${line}\n`);
      const summary = await seedAllOrNothing(
        runtime.sql,
        { say, now: () => runtime.clock.now(), steps: SEED_STEPS },
        (step) => seedDemo(runtime, step),
      );
      say(`seed-demo: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      console.log(summary);
    },
    { migrate: true },
  );
}

/** The steps seedDemo announces (progress "[3/12]"). */
const SEED_STEPS = 12;

/** The seed itself, step by step; returns what to print. seedAllOrNothing makes it all-or-nothing. */
async function seedDemo({ sql, store, config, projector, reactor, clock }: Runtime, step: SeedStep): Promise<string> {
  step('organization, school, classes, every persona, parent links');
  const superAdmin = await registerFirstAdmin(sql, {
    email: `super@${DOMAIN}`,
    password: DEMO_PASSWORD,
    fullNameAr: 'المشرف العام',
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'PERMISSION_DENIED') {
      throw new CliError('the database already has users; seed-demo only seeds an empty database (nothing changed)');
    }
    throw error;
  });
  const root: Caller = {
    userId: superAdmin.id,
    persona: 'ADMIN',
    organizationId: null,
    schoolId: null,
    permissions: permissionsFor('ADMIN', null),
  };

  const org = await createOrganization(sql, {
    name: 'شبكة مدارس الأمل (تجريبية)',
    slug: 'amal-demo-jo',
    country: 'JO',
    defaultLocale: 'ar-JO',
  });
  const school = await createSchool(sql, root, {
    organizationId: org.id,
    name: 'مدرسة الأمل الأساسية - عمّان',
    country: 'JO',
  });
  const adultIds: { id: number; persona: string }[] = [{ id: superAdmin.id, persona: 'ADMIN' }];
  const adult = async (persona: string, input: Adult, rows: LoginRow[]) => {
    const { id } = await createUser(sql, root, input);
    adultIds.push({ id, persona: input.primaryPersona });
    rows.push({ persona, signIn: input.email, secret: DEMO_PASSWORD, name: input.fullNameAr });
    return id;
  };

  const adults: LoginRow[] = [
    { persona: 'ADMIN (super scope)', signIn: superAdmin.email, secret: DEMO_PASSWORD, name: 'المشرف العام' },
  ];
  const inOrg = { password: DEMO_PASSWORD, organizationId: org.id };
  const orgAdminId = await adult(
    'ADMIN (organization)',
    { primaryPersona: 'ADMIN', email: `admin@${DOMAIN}`, fullNameAr: 'سامر الحداد', ...inOrg },
    adults,
  );
  await adult(
    'PRINCIPAL',
    {
      primaryPersona: 'PRINCIPAL',
      email: `principal@${DOMAIN}`,
      fullNameAr: 'منى الخطيب',
      schoolId: school.id,
      ...inOrg,
    },
    adults,
  );
  await adult(
    'MANAGER',
    { primaryPersona: 'MANAGER', email: `manager@${DOMAIN}`, fullNameAr: 'عمر الزعبي', ...inOrg },
    adults,
  );

  const students: LoginRow[] = [];
  const studentIds = new Map<string, number>();
  const classLines: string[] = [];
  const demoClasses: DemoClass[] = [];
  for (const spec of CLASSES) {
    const cls = await createClass(
      sql,
      root,
      { schoolId: school.id, name: spec.name, grade: spec.grade, academicYear: ACADEMIC_YEAR },
      clock.now(),
    );
    const teacherId = await adult('TEACHER', { primaryPersona: 'TEACHER', ...spec.teacher, ...inOrg }, adults);
    await assignClassTeacher(sql, root, cls.id, teacherId);
    const codes: string[] = [];
    const classStudents: number[] = [];
    for (const [i, fullNameAr] of spec.students.entries()) {
      const quickCode = String(i + 1).padStart(2, '0');
      const { studentId } = await enrollStudent(
        sql,
        { id: cls.id, organization_id: org.id },
        { fullNameAr, quickCode, ...(GENDER[fullNameAr] ? { gender: GENDER[fullNameAr] } : {}) },
      );
      studentIds.set(fullNameAr, studentId);
      classStudents.push(studentId);
      codes.push(`${quickCode} ${fullNameAr}`);
      students.push({
        persona: `STUDENT (grade ${spec.grade})`,
        signIn: `class code ${cls.loginCode}`,
        secret: quickCode,
        name: fullNameAr,
      });
    }
    demoClasses.push({ id: cls.id, grade: spec.grade, teacherId, studentIds: classStudents });
    classLines.push(
      `  ${spec.name} (grade ${spec.grade}, ${ACADEMIC_YEAR}): class code ${cls.loginCode}, valid until ` +
        `${cls.loginCodeExpiresAt.slice(0, 10)}; teacher ${spec.teacher.email}; quickCodes ${codes.join(', ')}`,
    );
  }
  for (const parent of PARENTS) {
    const parentId = await adult(
      'PARENT',
      { primaryPersona: 'PARENT', email: parent.email, fullNameAr: parent.fullNameAr, ...inOrg },
      adults,
    );
    for (const child of parent.children) await linkParent(sql, root, studentIds.get(child)!, parentId);
  }

  step('mastery history (20 school days)');
  const history = await seedMasteryHistory({ sql, store }, [...studentIds.values()]);
  const [firstChild] = CLASSES[0].students;
  const [firstClass] = await sql<{ id: string }[]>`select id from classes where name = ${CLASSES[0].name}`;
  step('notifications');
  const notices = await seedDemoNotifications({ sql, store }, adultIds, {
    studentId: studentIds.get(firstChild)!,
    classId: firstClass!.id,
    studentName: firstChild.split(' ')[0]!,
  });

  step('demo content pack (content/pack)');
  // The shipped content pack, so assessment and training have forms, lists and items to serve.
  const pack = await importContentPack({ sql }, DEMO_PACK_DIR);
  if (pack.problems.length > 0) throw new CliError(`the demo content pack was refused:\n${pack.problems.join('\n')}`);
  const content = packTotals(pack);

  step('BOY screening of both classes');
  // The demo classes' BOY screening, on the pack's forms, lists and passages.
  const assessment = await seedDemoAssessment(
    { sql, store },
    {
      organizationId: org.id,
      schoolId: school.id,
      academicYear: ACADEMIC_YEAR,
      adminId: orgAdminId,
      classes: demoClasses,
    },
  );

  step("re-diagnostics of the parents' children");
  // The parents' children sit two re-diagnostics: a full BOY profile, so the parent portal shows suggestions.
  const parentChildren = PARENTS.flatMap((p) => p.children.map((c) => studentIds.get(c)!));
  const profiled = assessment ? await seedDemoParents({ sql, store, clock }, parentChildren) : 0;
  // هند sits the same two re-diagnostics as أحمد, answering as he does: the same profile, the same cluster.
  if (assessment) {
    const twinOf = parentChildren.indexOf(studentIds.get('أحمد العبادي')!);
    await seedDemoParents({ sql, store, clock }, [studentIds.get('هند العتوم')!], { answersAs: twinOf });
  }
  // Progress monitoring of two grade-2 children without a screening reading of their own (كرم, لين): weekly
  // probes over the past weeks; then every child decided, and the alert sent to their teacher.
  const monitoringChild = (fullNameAr: string): MonitoringChild => {
    const cls = demoClasses[1]!;
    return {
      ...cls,
      studentId: studentIds.get(fullNameAr)!,
      classId: cls.id,
      firstName: fullNameAr.split(' ')[0]!,
    };
  };
  step('progress monitoring probes');
  const monitoring = assessment
    ? await seedDemoMonitoring(
        { sql, store },
        {
          organizationId: org.id,
          academicYear: ACADEMIC_YEAR,
          rising: monitoringChild('كرم البطاينة'),
          dipping: monitoringChild('لين المجالي'),
        },
      )
    : null;
  step('decisions for every child');
  const decisions = await seedDemoDecisions({ sql, store, projector, reactor, clock }, [...studentIds.values()]);
  step('training days, levels and alerts');
  const training = await seedDemoTraining({ sql, store, projector, reactor }, ACADEMIC_YEAR, studentIds);
  step('clusters');
  const clusters = await seedDemoClusters(
    { sql, store },
    demoClasses.map((c) => ({ id: c.id, organizationId: org.id, schoolId: school.id })),
  );
  step('sessions');
  const sessions = await seedDemoSessions({ sql, clock }, { organizationId: org.id, classes: demoClasses });

  step('read models: every projection and reaction to the log head');
  // Caught up here, so the demo reads complete whether or not a server runs (and one started later finds
  // nothing to do); reactions append events (notifications, credits), so the projections run once more.
  await projector.catchUp();
  await reactor.catchUp();
  const caughtUp = await projector.catchUp();

  const base = `http://localhost:${config.port}`;
  const example = students[0]!;
  return [
    `Demo data created: organization ${org.name} (${org.id}, ${org.country}, ${org.defaultLocale}), ` +
      `school ${school.name} (${school.id}), ${CLASSES.length} classes, ${adults.length} adults, ${students.length} students.`,
    '',
    `Every adult's password: ${DEMO_PASSWORD}. Students sign in with their class code and two-digit quickCode.`,
    '',
    table([...adults, ...students]),
    '',
    'Classes:',
    ...classLines,
    '',
    'Parents: ' + PARENTS.map((p) => `${p.email} → ${p.children.join(' + ')}`).join('; '),
    '',
    `Mastery history: ${history} mastery events over the last 20 school days (profiles and leaderboards show them).`,
    `Notifications: ${notices} in the inboxes of the demo adults (GET /api/notifications).`,
    `Content: the demo pack (content/pack), ${content.accepted} rows in ${content.files} approved import batches, ` +
      `${content.cellsSet} global diagnostic blueprint cells.`,
    demoAssessmentLine(assessment, ACADEMIC_YEAR),
    ...demoDecisionsLines(decisions, monitoring),
    `Parent portal: ${profiled} of the parents' ${parentChildren.length} children have a full BOY profile ` +
      '(two re-diagnostics each); GET /api/parent/children as a parent.',
    clusters,
    sessions,
    demoTrainingLine(training),
    `Read models: all ${caughtUp.size} projections and ${reactor.reactions.length} reactions caught up to the log head (no server start needed).`,
    '',
    'Try it (start the server with `npm start` first; the README walk-through signs in as the super administrator):',
    `  curl -s -X POST ${base}/api/auth/login -H 'content-type: application/json' ` +
      `-d '{"email":"super@${DOMAIN}","password":"${DEMO_PASSWORD}"}'`,
    `  curl -s -X POST ${base}/api/auth/login -H 'content-type: application/json' ` +
      `-d '{"email":"teacher1@${DOMAIN}","password":"${DEMO_PASSWORD}"}'`,
    `  curl -s -X POST ${base}/api/auth/student/quickcode -H 'content-type: application/json' ` +
      `-d '{"classCode":"${example.signIn.replace('class code ', '')}","quickCode":"${example.secret}"}'`,
  ].join('\n');
}
