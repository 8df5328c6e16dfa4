import { Type } from 'typebox';
import {
  CONTENT_KINDS,
  CONTENT_ROLES,
  type GRADES,
  SECTION_KEYS,
  TEACHER_CELLS,
  WINDOWS,
} from '../queries/catalogTypes';

/** A string enum that TypeBox types as the literal union (OpenAPI shows `enum`). */
export const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));

export const GradeSchema = Type.Integer({ minimum: 1, maximum: 4, description: 'grade 1 to 4' });
export const GradeParam = Type.Unsafe<(typeof GRADES)[number]>(Type.Integer({ minimum: 1, maximum: 4 }));
export const WindowSchema = literals(WINDOWS, { description: 'assessment window' });
export const ContentRoleSchema = literals(CONTENT_ROLES);
export const ContentKindSchema = literals(CONTENT_KINDS);
export const TeacherCellSchema = literals(TEACHER_CELLS);
export const SectionKeySchema = literals(SECTION_KEYS);
export const ExternalIdSchema = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$',
  description: 'the author’s stable id; versions of one piece of content share it within a scope',
});
/** Arabic text shown to students: non-empty, bounded. The language-safety filter runs on it at write time. */
export const ArabicText = (maxLength: number) => Type.String({ minLength: 1, maxLength });
export const OrganizationScope = Type.Union([Type.String(), Type.Null()], {
  description: 'owning organization; null for global content',
});
export const security = [{ bearerAuth: [] }];
export const BACKOFFICE = { anyPermission: ['RUN_BACKOFFICE'] as const };
export const BACKOFFICE_NOTE =
  'Needs RUN_BACKOFFICE (organization admin: own organization plus read-only global content) or the true ' +
  'super-admin (every call writes a super_bypass audit event). Another organization’s content is 404.';
