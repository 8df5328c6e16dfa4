import { SchoolDay } from '@qiraa/http-kit';
import { Type } from 'typebox';
import { SCREENING_WINDOWS } from '../engine/calendar';

/** A string enum that TypeBox types as the literal union (OpenAPI shows `enum`). */
export const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const security = [{ bearerAuth: [] }];
export const tags = ['assessment'];

export const WindowSchema = literals(SCREENING_WINDOWS, { description: 'screening window' });
export const AcademicYearSchema = Type.String({
  pattern: '^[0-9]{4}-[0-9]{4}$',
  description: 'YYYY-YYYY, two consecutive years',
});
export const OrganizationIdSchema = Type.String({ minLength: 1, maxLength: 64 });
export const ClassIdSchema = Type.String({ minLength: 1, maxLength: 64 });

/** `2026-2027`: the second year follows the first. */
export const consecutiveYears = (academicYear: string) => {
  const [a, b] = academicYear.split('-').map(Number);
  return b === a! + 1;
};

export const WindowStatusSchema = Type.Object({
  window: WindowSchema,
  startsOn: SchoolDay,
  endsOn: SchoolDay,
  open: Type.Boolean(),
  openTrigger: Nullable(literals(['calendar', 'manual'] as const)),
  closedEarly: Type.Boolean({ description: 'closed by an administrator; stays closed until opened again' }),
  openedAt: Nullable(Type.String({ format: 'date-time', description: 'latest manual opening' })),
  closedAt: Nullable(Type.String({ format: 'date-time', description: 'latest early close' })),
});

export const WindowCalendarSchema = Type.Object({
  organizationId: Type.String(),
  academicYear: AcademicYearSchema,
  timeZone: Type.String({ description: 'the organization’s time zone: windows are its calendar days' }),
  today: SchoolDay,
  source: literals(['stored', 'default'] as const, { description: 'default: no calendar stored for the year' }),
  openWindow: Nullable(WindowSchema),
  windows: Type.Array(WindowStatusSchema, { minItems: 3, maxItems: 3 }),
});
