import { strToU8, zipSync } from 'fflate';

const GIVEN = ['محمد', 'أحمد', 'ليلى', 'سارة', 'يوسف', 'مريم', 'عمر', 'هند', 'خالد', 'نور', 'زيد', 'ريم'];
const FAMILY = ['الخطيب', 'حداد', 'النجار', 'سالم', 'منصور', 'العلي', 'الحسن', 'الزعبي'];

export interface RosterWorkload {
  readonly schools: number;
  readonly classesPerSchool: number;
  readonly childrenPerClass: number;
  /** Every n-th child has a parent in the file. */
  readonly parentEvery: number;
}

/** The user rows of a workload, as both the import and the raw baseline write them. */
export interface WorkloadUser {
  sourcedId: string;
  fullNameAr: string;
  persona: 'STUDENT' | 'TEACHER' | 'PARENT';
  email: string | null;
}

const line = (cells: string[]) => cells.join(',');

/** A ministry's OneRoster export: schools of classes of children, a teacher per class, some parents. */
export function oneRosterExport(w: RosterWorkload): { zip: Uint8Array; users: WorkloadUser[]; enrollments: number } {
  const orgs = ['sourcedId,name,type,parentSourcedId', line(['moe', 'الوزارة', 'national', ''])];
  const classes = ['sourcedId,title,grades,schoolSourcedId'];
  const users = ['sourcedId,givenName,familyName,email,agentSourcedIds'];
  const roles = ['userSourcedId,roleType,role,orgSourcedId'];
  const enrollments = ['classSourcedId,schoolSourcedId,userSourcedId,role'];
  const rows: WorkloadUser[] = [];
  let child = 0;
  for (let s = 0; s < w.schools; s++) {
    const school = `sch-${s}`;
    orgs.push(line([school, `مدرسة ${FAMILY[s % FAMILY.length]} ${GIVEN[s % GIVEN.length]}`, 'school', 'moe']));
    for (let c = 0; c < w.classesPerSchool; c++) {
      const cls = `${school}-c${c}`;
      classes.push(line([cls, `الصف ${c}`, `0${(c % 4) + 1}`, school]));
      const teacher = `${cls}-t`;
      users.push(
        line([teacher, GIVEN[c % GIVEN.length]!, FAMILY[s % FAMILY.length]!, `${teacher}@school.example`, '']),
      );
      roles.push(line([teacher, 'primary', 'teacher', school]));
      enrollments.push(line([cls, school, teacher, 'teacher']));
      rows.push({
        sourcedId: teacher,
        fullNameAr: `${GIVEN[c % GIVEN.length]} ${FAMILY[s % FAMILY.length]}`,
        persona: 'TEACHER',
        email: `${teacher}@school.example`,
      });
      for (let k = 0; k < w.childrenPerClass; k++, child++) {
        const id = `kid-${child}`;
        const given = GIVEN[child % GIVEN.length]!;
        const family = FAMILY[(child >> 3) % FAMILY.length]!;
        const parent = child % w.parentEvery === 0 ? `par-${child}` : '';
        users.push(line([id, given, family, '', parent]));
        roles.push(line([id, 'primary', 'student', school]));
        enrollments.push(line([cls, school, id, 'student']));
        rows.push({ sourcedId: id, fullNameAr: `${given} ${family}`, persona: 'STUDENT', email: null });
        if (parent) {
          users.push(line([parent, 'ولي', family, `${parent}@home.example`, '']));
          roles.push(line([parent, 'primary', 'parent', school]));
          rows.push({
            sourcedId: parent,
            fullNameAr: `ولي ${family}`,
            persona: 'PARENT',
            email: `${parent}@home.example`,
          });
        }
      }
    }
  }
  const file = (lines: string[]) => strToU8(`${lines.join('\n')}\n`);
  const zip = zipSync({
    'orgs.csv': file(orgs),
    'classes.csv': file(classes),
    'users.csv': file(users),
    'roles.csv': file(roles),
    'enrollments.csv': file(enrollments),
  });
  return { zip, users: rows, enrollments: enrollments.length - 1 };
}

/** A simple-format file of `rows` rows, every one with a problem (a name with digits). */
export function simpleCsvWithErrors(schoolId: string, rows: number): Uint8Array {
  const lines = ['externalId,schoolId,className,grade,academicYear,fullNameAr,gender,quickCode,parentEmails'];
  for (let i = 0; i < rows; i++)
    lines.push(line([`bad-${i}`, schoolId, 'الأول', '1', '2026-2027', `طفل${i}`, '', '', '']));
  return strToU8(`${lines.join('\n')}\n`);
}
