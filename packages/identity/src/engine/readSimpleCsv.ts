import { readCsv } from './readRosterCsv';
import { gradeOf, RowErrors } from './rosterRowChecks';
import {
  type AdultInput,
  type ClassInput,
  emptyRosterInput,
  type RosterInput,
  type SchoolRef,
  type StudentInput,
} from './rosterTypes';

export const SIMPLE_HEADER = [
  'externalId',
  'schoolId',
  'className',
  'grade',
  'academicYear',
  'fullNameAr',
  'gender',
  'quickCode',
  'parentEmails',
] as const;

/** Default name of an imported parent: the simple format names parents by email only. */
export const IMPORTED_PARENT_NAME = 'ولي الأمر';

/** The simple format: one row per child, schools by the service's id, classes by name, parents by email. */
export function readSimpleCsv(file: string, bytes: Uint8Array): RosterInput {
  const errors = new RowErrors();
  const empty = emptyRosterInput('simple', errors.list);
  const read = readCsv(file, bytes, SIMPLE_HEADER, { exact: true });
  if (!read.ok) {
    errors.list.push({ ...read.error, schoolKeys: null });
    return empty;
  }
  const schools = new Map<string, SchoolRef>();
  const classes = new Map<string, ClassInput>();
  const students = new Map<string, StudentInput>();
  const adults = new Map<string, AdultInput>();
  const parentLinks: RosterInput['parentLinks'] = [];

  for (const { line, values } of read.rows) {
    const origin = { file, line };
    const schoolId = values.schoolId?.trim() ?? '';
    const scope = schoolId ? [schoolId] : null;
    const externalId = errors.required(origin, values, 'externalId', scope ?? undefined);
    if (!schoolId) errors.add(origin, 'schoolId', 'missing_field', 'schoolId is required', null);
    const className = errors.required(origin, values, 'className', scope ?? undefined);
    const gradeRaw = errors.required(origin, values, 'grade', scope ?? undefined);
    const grade = gradeRaw === null ? null : gradeOf(gradeRaw);
    if (gradeRaw !== null && grade === null) {
      errors.add(origin, 'grade', 'grade_out_of_range', 'grade is 1 to 4', scope);
    }
    const yearRaw = errors.required(origin, values, 'academicYear', scope ?? undefined);
    const academicYear =
      yearRaw === null ? null : errors.academicYear(origin, 'academicYear', yearRaw, scope ?? undefined);
    const nameRaw = errors.required(origin, values, 'fullNameAr', scope ?? undefined);
    const fullNameAr = nameRaw === null ? null : errors.name(origin, 'fullNameAr', nameRaw, scope ?? undefined);
    const gender = errors.gender(origin, 'gender', values.gender, scope ?? undefined);
    const quickCode = errors.quickCode(origin, 'quickCode', values.quickCode, scope ?? undefined);
    const emails = (values.parentEmails ?? '')
      .split(';')
      .map((e) => e.trim())
      .filter((e) => e !== '')
      .map((e) => errors.email(origin, 'parentEmails', e, scope ?? undefined));
    if (
      !schoolId ||
      externalId === null ||
      className === null ||
      grade === null ||
      academicYear === null ||
      fullNameAr === null ||
      gender === false ||
      quickCode === false ||
      emails.includes(null)
    ) {
      continue;
    }
    if (!schools.has(schoolId)) schools.set(schoolId, { kind: 'id', key: schoolId, schoolId, origin });
    const classKey = `${schoolId}\u0000${className}\u0000${academicYear}`;
    const known = classes.get(classKey);
    if (known && known.grade !== grade) {
      errors.add(
        origin,
        'grade',
        'conflicting_values',
        `class ${className} has grade ${known.grade} on line ${known.origin.line}`,
        [schoolId],
      );
      continue;
    }
    if (!known)
      classes.set(classKey, {
        key: classKey,
        schoolKey: schoolId,
        sourcedId: null,
        name: className,
        grade,
        academicYear,
        origin,
      });
    if (students.has(externalId)) {
      errors.add(
        origin,
        'externalId',
        'duplicate_id',
        `externalId already on line ${students.get(externalId)!.origin.line}`,
        [schoolId],
      );
      continue;
    }
    students.set(externalId, { sourcedId: externalId, fullNameAr, gender, classKey, quickCode, origin });
    for (const email of emails as string[]) {
      if (!adults.has(email)) {
        adults.set(email, {
          key: email,
          sourcedId: null,
          email,
          fullNameAr: IMPORTED_PARENT_NAME,
          persona: 'PARENT',
          schoolKey: null,
          origin,
        });
      }
      parentLinks.push({ studentSourcedId: externalId, adultKey: email, origin });
    }
  }
  return {
    ...empty,
    schools: [...schools.values()],
    classes: [...classes.values()],
    students: [...students.values()],
    adults: [...adults.values()],
    parentLinks,
  };
}
