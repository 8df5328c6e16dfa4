import { strToU8, zipSync } from 'fflate';

/** CSV text from a header and rows (fields with a comma or a quote are quoted). */
export function csv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\n');
}

export interface OneRosterSet {
  orgs: string[][];
  classes: string[][];
  users: string[][];
  roles: string[][];
  enrollments: string[][];
}

export const ONEROSTER_HEADERS = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
  ],
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'username',
    'givenName',
    'familyName',
    'middleName',
    'email',
    'agentSourcedIds',
    'grades',
  ],
  roles: ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
  ],
} as const;

/** A OneRoster 1.2 CSV set as a ZIP (with a manifest and a file the import ignores, as real exports have). */
export function oneRosterZip(set: OneRosterSet, options: { bom?: boolean } = {}): Uint8Array {
  const file = (text: string) => strToU8(options.bom ? `\uFEFF${text}` : text);
  return zipSync({
    'manifest.csv': strToU8('propertyName,value\nmanifest.version,1.0\noneroster.version,1.2\n'),
    'academicSessions.csv': strToU8(
      'sourcedId,title,type,startDate,endDate,schoolYear\nt1,2026,schoolYear,2026-09-01,2027-06-30,2027\n',
    ),
    'orgs.csv': file(csv(ONEROSTER_HEADERS.orgs, set.orgs)),
    'classes.csv': file(csv(ONEROSTER_HEADERS.classes, set.classes)),
    'users.csv': file(csv(ONEROSTER_HEADERS.users, set.users)),
    'roles.csv': file(csv(ONEROSTER_HEADERS.roles, set.roles)),
    'enrollments.csv': file(csv(ONEROSTER_HEADERS.enrollments, set.enrollments)),
  });
}

const org = (id: string, name: string, type = 'school', parent = 'moe') => [id, '', '', name, type, '', parent];
const cls = (id: string, title: string, grade: string, school: string) => [
  id,
  '',
  '',
  title,
  grade,
  '',
  '',
  'homeroom',
  '',
  school,
  't1',
];
export const user = (id: string, given: string, family: string, email = '', agents = '') => [
  id,
  '',
  '',
  'true',
  '',
  given,
  family,
  '',
  email,
  agents,
  '',
];
const role = (u: string, r: string, orgId: string) => [`r-${u}`, '', '', u, 'primary', r, orgId];
const enr = (c: string, school: string, u: string, r: string) => [`e-${c}-${u}`, '', '', c, school, u, r, 'true'];

/** Two schools of a ministry: two classes, four children, two teachers, a principal, two parents. */
export function sampleSet(prefix: string): OneRosterSet {
  const p = (id: string) => `${prefix}-${id}`;
  return {
    orgs: [org('moe', 'وزارة التربية', 'national', ''), org(p('s1'), 'مدرسة النور'), org(p('s2'), 'مدرسة الأمل')],
    classes: [cls(p('c1'), 'الأول أ', '01', p('s1')), cls(p('c2'), 'الثاني ب', '02', p('s2'))],
    users: [
      user(p('k1'), 'محمد-أمين', 'الخطيب', '', p('g1')),
      user(p('k2'), 'ليلى', 'حداد'),
      user(p('k3'), 'يوسف', 'النجار'),
      user(p('k4'), 'هند', 'سالم'),
      user(p('t1'), 'سعاد', 'علي', `${p('t1')}@school.example`),
      user(p('t2'), 'خالد', 'عمر', `${p('t2')}@school.example`),
      user(p('pr'), 'منى', 'يوسف', `${p('pr')}@school.example`),
      user(p('g1'), 'أمين', 'الخطيب', `${p('g1')}@home.example`),
      user(p('g2'), 'سلمى', 'حداد', `${p('g2')}@home.example`, p('k2')),
    ],
    roles: [
      ...['k1', 'k2', 'k3'].map((k) => role(p(k), 'student', p('s1'))),
      role(p('k4'), 'student', p('s2')),
      role(p('t1'), 'teacher', p('s1')),
      role(p('t2'), 'teacher', p('s2')),
      role(p('pr'), 'principal', p('s1')),
      role(p('g1'), 'parent', p('s1')),
      role(p('g2'), 'guardian', p('s1')),
    ],
    enrollments: [
      enr(p('c1'), p('s1'), p('k1'), 'student'),
      enr(p('c1'), p('s1'), p('k2'), 'student'),
      enr(p('c1'), p('s1'), p('k3'), 'student'),
      enr(p('c2'), p('s2'), p('k4'), 'student'),
      enr(p('c1'), p('s1'), p('t1'), 'teacher'),
      enr(p('c2'), p('s2'), p('t2'), 'teacher'),
    ],
  };
}
