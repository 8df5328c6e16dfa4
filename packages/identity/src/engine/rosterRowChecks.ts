import { isAcademicYear } from '../commands/createClass';
import { normalizePersonName } from './rosterPersonName';
import type { RosterErrorCode, RowOrigin, ScopedError } from './rosterTypes';
import { STUDENT_GENDERS, type StudentGender } from './studentGender';

/** Collects a file's row errors, each with the schools it keeps from being applied. */
export class RowErrors {
  readonly list: ScopedError[] = [];

  add(
    origin: RowOrigin,
    field: string | null,
    code: RosterErrorCode,
    message: string,
    schoolKeys: readonly string[] | null = [],
  ) {
    this.list.push({ file: origin.file, line: origin.line, field, code, message, schoolKeys });
  }

  /** A required field's trimmed value, or an error and `null`. */
  required(origin: RowOrigin, values: Readonly<Record<string, string>>, field: string, schools?: string[]) {
    const value = values[field]?.trim() ?? '';
    if (value === '') {
      this.add(origin, field, 'missing_field', `${field} is required`, schools);
      return null;
    }
    return value;
  }

  name(origin: RowOrigin, field: string, raw: string, schools?: string[]): string | null {
    const name = normalizePersonName(raw);
    if (name === null) {
      this.add(
        origin,
        field,
        'invalid_name',
        'a name is 1-120 letters in words (spaces, hyphens, apostrophes)',
        schools,
      );
    }
    return name;
  }

  gender(origin: RowOrigin, field: string, raw: string | undefined, schools?: string[]): StudentGender | null | false {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    if ((STUDENT_GENDERS as readonly string[]).includes(value)) return value as StudentGender;
    this.add(origin, field, 'invalid_value', 'gender is female, male or empty', schools);
    return false;
  }

  email(origin: RowOrigin, field: string, raw: string, schools?: string[]): string | null {
    const email = raw.trim().toLowerCase();
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254) return email;
    this.add(origin, field, 'invalid_email', 'not an email address', schools);
    return null;
  }

  academicYear(origin: RowOrigin, field: string, raw: string, schools?: string[]): string | null {
    if (isAcademicYear(raw)) return raw;
    this.add(origin, field, 'academic_year_invalid', 'academic years are YYYY-YYYY with consecutive years', schools);
    return null;
  }

  quickCode(origin: RowOrigin, field: string, raw: string | undefined, schools?: string[]): string | null | false {
    const value = (raw ?? '').trim();
    if (value === '') return null;
    if (/^(0[1-9]|[1-9][0-9])$/.test(value)) return value;
    this.add(origin, field, 'quick_code_invalid', 'a quickCode is two digits, 01-99', schools);
    return false;
  }
}

/** Grades 1-4 from `1`..`4` or OneRoster's CEDS codes `01`..`04`. */
export function gradeOf(raw: string): number | null {
  const value = raw.trim();
  return /^0?[1-4]$/.test(value) ? Number(value) : null;
}
