import { type CsvRow, readCsv } from './readRosterCsv';
import { gradeOf, RowErrors } from './rosterRowChecks';
import {
  type AdultInput,
  type AdultPersona,
  type ClassInput,
  emptyRosterInput,
  type RosterInput,
  type RowOrigin,
  type SchoolRef,
  type StudentInput,
} from './rosterTypes';

/** The OneRoster 1.2 CSV files read, with the columns each must have; every other file of the set is ignored. */
const FILES = {
  'orgs.csv': ['sourcedId', 'name', 'type'],
  'classes.csv': ['sourcedId', 'title', 'grades', 'schoolSourcedId'],
  'users.csv': ['sourcedId', 'givenName', 'familyName'],
  'roles.csv': ['userSourcedId', 'role', 'orgSourcedId'],
  'enrollments.csv': ['classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
} as const;
type FileName = keyof typeof FILES;

const PERSONA_OF_ROLE: Readonly<Record<string, AdultPersona | 'STUDENT'>> = {
  student: 'STUDENT',
  teacher: 'TEACHER',
  aide: 'TEACHER',
  parent: 'PARENT',
  guardian: 'PARENT',
  relative: 'PARENT',
  principal: 'PRINCIPAL',
  siteAdministrator: 'PRINCIPAL',
};

/**
 * A OneRoster 1.2 CSV set (orgs, classes, users, roles, enrollments; 1.1's `role` column on users.csv is
 * read when roles.csv is absent). Classes carry no academic year the service can use without
 * academicSessions.csv, so every class is in `academicYear`. Rows with status `tobedeleted` are left out.
 */
export function readOneRoster(files: ReadonlyMap<string, Uint8Array>, academicYear: string): RosterInput {
  const errors = new RowErrors();
  const rows = new Map<FileName, CsvRow[]>();
  for (const [name, columns] of Object.entries(FILES) as [FileName, readonly string[]][]) {
    const bytes = files.get(name);
    if (!bytes) {
      const optional = name === 'roles.csv';
      if (!optional) errors.list.push(fileLevel(name, 'missing_file', `${name} is required`));
      continue;
    }
    const read = readCsv(name, bytes, columns);
    if (!read.ok) errors.list.push({ ...read.error, schoolKeys: null });
    else
      rows.set(
        name,
        read.rows.filter((row) => row.values.status?.trim() !== 'tobedeleted'),
      );
  }
  if (!rows.has('roles.csv') && rows.has('users.csv') && !rows.get('users.csv')!.some((r) => 'role' in r.values)) {
    errors.list.push(fileLevel('roles.csv', 'missing_file', 'roles.csv is required (or a role column in users.csv)'));
  }
  const result = emptyRosterInput('oneroster', errors.list);
  if (errors.list.some((e) => e.schoolKeys === null)) return result;
  const at = (file: FileName, row: CsvRow): RowOrigin => ({ file, line: row.line });

  // Schools.
  const schools = new Map<string, SchoolRef>();
  for (const row of rows.get('orgs.csv')!) {
    if (row.values.type?.trim() !== 'school') continue;
    const origin = at('orgs.csv', row);
    const sourcedId = errors.required(origin, row.values, 'sourcedId', []);
    const name = errors.required(origin, row.values, 'name', sourcedId ? [sourcedId] : []);
    if (sourcedId === null || name === null) continue;
    if (schools.has(sourcedId)) {
      errors.add(origin, 'sourcedId', 'duplicate_id', 'this school sourcedId is on an earlier line', [sourcedId]);
      continue;
    }
    if (name.length > 200) {
      errors.add(origin, 'name', 'invalid_value', 'a school name is at most 200 characters', [sourcedId]);
      continue;
    }
    schools.set(sourcedId, { kind: 'sourced', key: sourcedId, sourcedId, name, origin });
  }

  // Classes.
  const classes = new Map<string, ClassInput>();
  for (const row of rows.get('classes.csv')!) {
    const origin = at('classes.csv', row);
    const schoolKey = row.values.schoolSourcedId?.trim() ?? '';
    const scope = schools.has(schoolKey) ? [schoolKey] : [];
    if (!schools.has(schoolKey)) {
      errors.add(origin, 'schoolSourcedId', 'unknown_reference', 'no school with this sourcedId in orgs.csv', []);
      continue;
    }
    const sourcedId = errors.required(origin, row.values, 'sourcedId', scope);
    const title = errors.required(origin, row.values, 'title', scope);
    const grades = errors.required(origin, row.values, 'grades', scope);
    if (sourcedId === null || title === null || grades === null) continue;
    const grade = grades.includes(',') ? null : gradeOf(grades);
    if (grade === null) {
      errors.add(origin, 'grades', 'grade_out_of_range', 'a class is one grade, 1 to 4 (01-04)', scope);
      continue;
    }
    if (classes.has(sourcedId)) {
      errors.add(origin, 'sourcedId', 'duplicate_id', 'this class sourcedId is on an earlier line', scope);
      continue;
    }
    if (title.length > 200) {
      errors.add(origin, 'title', 'invalid_value', 'a class title is at most 200 characters', scope);
      continue;
    }
    classes.set(sourcedId, { key: sourcedId, schoolKey, sourcedId, name: title, grade, academicYear, origin });
  }

  // Roles: the persona of each user (roles.csv, else users.csv's 1.1 role column), a principal's school.
  const roleOf = new Map<string, { persona: AdultPersona | 'STUDENT'; org: string | null }>();
  for (const row of rows.get('roles.csv') ?? []) {
    const user = row.values.userSourcedId?.trim() ?? '';
    const persona = PERSONA_OF_ROLE[row.values.role?.trim() ?? ''];
    if (!user || !persona) continue;
    const primary = (row.values.roleType?.trim() ?? 'primary') === 'primary';
    if (!roleOf.has(user) || primary) roleOf.set(user, { persona, org: row.values.orgSourcedId?.trim() || null });
  }

  // Enrollments: a student's one class; teachers of classes.
  const classOfStudent = new Map<string, { classKey: string; origin: RowOrigin }>();
  const teacherLinks: RosterInput['teacherLinks'] = [];
  const schoolsOfUser = new Map<string, Set<string>>();
  for (const row of rows.get('enrollments.csv')!) {
    const origin = at('enrollments.csv', row);
    const classKey = row.values.classSourcedId?.trim() ?? '';
    const user = row.values.userSourcedId?.trim() ?? '';
    const cls = classes.get(classKey);
    if (!cls) {
      errors.add(origin, 'classSourcedId', 'unknown_reference', 'no class with this sourcedId in classes.csv', []);
      continue;
    }
    if (!user) {
      errors.add(origin, 'userSourcedId', 'missing_field', 'userSourcedId is required', [cls.schoolKey]);
      continue;
    }
    const set = schoolsOfUser.get(user) ?? new Set<string>();
    schoolsOfUser.set(user, set);
    set.add(cls.schoolKey);
    const role = PERSONA_OF_ROLE[row.values.role?.trim() ?? ''];
    if (role === 'STUDENT') {
      const earlier = classOfStudent.get(user);
      if (earlier && earlier.classKey !== classKey) {
        errors.add(
          origin,
          'classSourcedId',
          'multiple_classes',
          `student already enrolled on line ${earlier.origin.line}`,
          [cls.schoolKey, classes.get(earlier.classKey)!.schoolKey],
        );
        continue;
      }
      classOfStudent.set(user, { classKey, origin });
    } else if (role === 'TEACHER') {
      teacherLinks.push({ classKey, adultKey: user, origin });
    }
  }

  // Users.
  const students = new Map<string, StudentInput>();
  const adults = new Map<string, AdultInput>();
  const agents: { from: string; to: string[]; origin: RowOrigin }[] = [];
  const seenUsers = new Map<string, number>();
  for (const row of rows.get('users.csv')!) {
    const origin = at('users.csv', row);
    const sourcedId = errors.required(origin, row.values, 'sourcedId', []);
    if (sourcedId === null) continue;
    const scope = [...(schoolsOfUser.get(sourcedId) ?? [])];
    if (seenUsers.has(sourcedId)) {
      errors.add(
        origin,
        'sourcedId',
        'duplicate_id',
        `this user sourcedId is on line ${seenUsers.get(sourcedId)}`,
        scope,
      );
      continue;
    }
    seenUsers.set(sourcedId, row.line);
    const role =
      roleOf.get(sourcedId) ??
      (row.values.role ? { persona: PERSONA_OF_ROLE[row.values.role.trim()], org: null } : undefined);
    if (!role?.persona) continue; // administrators, proctors and other roles the service does not hold
    const given = errors.required(origin, row.values, 'givenName', scope);
    const family = errors.required(origin, row.values, 'familyName', scope);
    if (given === null || family === null) continue;
    const fullNameAr = errors.name(origin, 'givenName', [given, row.values.middleName ?? '', family].join(' '), scope);
    if (fullNameAr === null) continue;
    const agentIds = (row.values.agentSourcedIds ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (agentIds.length > 0) agents.push({ from: sourcedId, to: agentIds, origin });
    if (role.persona === 'STUDENT') {
      const enrolled = classOfStudent.get(sourcedId);
      if (!enrolled) {
        errors.add(
          origin,
          'sourcedId',
          'unknown_reference',
          'the student has no class enrollment in enrollments.csv',
          [],
        );
        continue;
      }
      students.set(sourcedId, {
        sourcedId,
        fullNameAr,
        gender: undefined,
        classKey: enrolled.classKey,
        quickCode: null,
        origin,
      });
      continue;
    }
    const schoolKey = role.persona === 'PRINCIPAL' ? (role.org && schools.has(role.org) ? role.org : null) : null;
    if (role.persona === 'PRINCIPAL' && schoolKey === null) {
      errors.add(
        origin,
        'orgSourcedId',
        'unknown_reference',
        'a principal needs a school of orgs.csv in roles.csv',
        [],
      );
      continue;
    }
    const rawEmail = row.values.email?.trim() ?? '';
    const adultScope = schoolKey ? [schoolKey] : scope;
    if (rawEmail === '') {
      errors.add(origin, 'email', 'missing_field', 'an adult needs an email to sign in', adultScope);
      continue;
    }
    const email = errors.email(origin, 'email', rawEmail, adultScope);
    if (email === null) continue;
    adults.set(sourcedId, { key: sourcedId, sourcedId, email, fullNameAr, persona: role.persona, schoolKey, origin });
  }

  // Parent links, named from either side.
  const parentLinks: RosterInput['parentLinks'] = [];
  const linked = new Set<string>();
  for (const { from, to, origin } of agents) {
    for (const other of to) {
      const [student, parent] = students.has(from) ? [from, other] : [other, from];
      if (!students.has(student) || adults.get(parent)?.persona !== 'PARENT') continue;
      const key = `${student}\u0000${parent}`;
      if (linked.has(key)) continue;
      linked.add(key);
      parentLinks.push({ studentSourcedId: student, adultKey: parent, origin });
    }
  }
  return {
    ...result,
    schools: [...schools.values()],
    classes: [...classes.values()],
    students: [...students.values()],
    adults: [...adults.values()],
    teacherLinks: teacherLinks.filter((link) => adults.get(link.adultKey)?.persona === 'TEACHER'),
    parentLinks,
  };
}

const fileLevel = (file: string, code: 'missing_file', message: string) => ({
  file,
  line: null,
  field: null,
  code,
  message,
  schoolKeys: null,
});
