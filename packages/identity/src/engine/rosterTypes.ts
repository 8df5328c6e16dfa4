import type { StudentGender } from './studentGender';

/** Where a row came from: the report names the file and the line (1 is the header). */
export interface RowOrigin {
  readonly file: string;
  readonly line: number;
}

/** The closed list of report codes (docs/roster-import.md). */
export const ROSTER_ERROR_CODES = [
  'not_utf8',
  'missing_file',
  'bad_header',
  'missing_field',
  'invalid_value',
  'invalid_name',
  'invalid_email',
  'grade_out_of_range',
  'academic_year_invalid',
  'duplicate_id',
  'unknown_reference',
  'school_not_found',
  'school_not_in_organization',
  'email_in_use',
  'multiple_classes',
  'quick_code_invalid',
  'quick_code_taken',
  'quick_code_changed',
  'class_full',
  'conflicting_values',
] as const;
export type RosterErrorCode = (typeof ROSTER_ERROR_CODES)[number];

export interface RosterError {
  file: string;
  line: number | null;
  field: string | null;
  code: RosterErrorCode;
  message: string;
}

/** A school by the service's id (simple format) or by the SIS's sourcedId (OneRoster, created when absent). */
export type SchoolRef =
  | { readonly kind: 'id'; readonly key: string; readonly schoolId: string; readonly origin: RowOrigin }
  | {
      readonly kind: 'sourced';
      readonly key: string;
      readonly sourcedId: string;
      readonly name: string;
      readonly origin: RowOrigin;
    };

export interface ClassInput {
  /** Unique in the file: the sourcedId (OneRoster) or school + name + year (simple). */
  readonly key: string;
  readonly schoolKey: string;
  readonly sourcedId: string | null;
  readonly name: string;
  readonly grade: number;
  readonly academicYear: string;
  readonly origin: RowOrigin;
}

export interface StudentInput {
  readonly sourcedId: string;
  readonly fullNameAr: string;
  /** `undefined`: the file does not say (OneRoster), the stored gender stays. */
  readonly gender: StudentGender | null | undefined;
  readonly classKey: string;
  readonly quickCode: string | null;
  readonly origin: RowOrigin;
}

export type AdultPersona = 'TEACHER' | 'PRINCIPAL' | 'PARENT';

export interface AdultInput {
  /** Unique in the file: the sourcedId (OneRoster) or the email (simple format's parents). */
  readonly key: string;
  readonly sourcedId: string | null;
  readonly email: string;
  readonly fullNameAr: string;
  readonly persona: AdultPersona;
  /** A principal's school. */
  readonly schoolKey: string | null;
  readonly origin: RowOrigin;
}

/** What a roster file set says, in the service's terms, before it is compared with the database. */
export interface RosterInput {
  readonly format: 'oneroster' | 'simple';
  readonly schools: SchoolRef[];
  readonly classes: ClassInput[];
  readonly students: StudentInput[];
  readonly adults: AdultInput[];
  readonly teacherLinks: { classKey: string; adultKey: string; origin: RowOrigin }[];
  readonly parentLinks: { studentSourcedId: string; adultKey: string; origin: RowOrigin }[];
  /** Errors found while reading; each names the school keys it stops (empty: the whole file). */
  readonly errors: ScopedError[];
}

/** A roster with nothing in it yet but its format and the list its reader fills with errors. */
export const emptyRosterInput = (format: RosterInput['format'], errors: ScopedError[]): RosterInput => ({
  format,
  schools: [],
  classes: [],
  students: [],
  adults: [],
  teacherLinks: [],
  parentLinks: [],
  errors,
});

export interface ScopedError extends RosterError {
  /** The schools this error keeps from being applied; `null`: every school of the file. */
  readonly schoolKeys: readonly string[] | null;
}

export interface EntityCounts {
  create: number;
  update: number;
  deactivate: number;
  unchanged: number;
}

export const ENTITY_KINDS = [
  'schools',
  'classes',
  'students',
  'teachers',
  'principals',
  'parents',
  'classTeachers',
  'parentLinks',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
export type RosterCounts = Record<EntityKind, EntityCounts>;

export const emptyCounts = (): RosterCounts =>
  Object.fromEntries(
    ENTITY_KINDS.map((kind) => [kind, { create: 0, update: 0, deactivate: 0, unchanged: 0 }]),
  ) as RosterCounts;
