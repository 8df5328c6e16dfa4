import { type TSchema, Type } from 'typebox';

/** A string enum that TypeBox types as the literal union (OpenAPI shows `enum`). */
export const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const security = [{ bearerAuth: [] }];
export const BACKOFFICE = { anyPermission: ['RUN_BACKOFFICE'] as const };
export const BACKOFFICE_NOTE =
  'Needs RUN_BACKOFFICE (organization admin: own organization plus read-only global blueprints) or the true ' +
  'super-admin. Another organization’s batch or blueprint is 404.';
export const CursorQuery = Type.Optional(Type.String({ maxLength: 512 }));
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;
export const LimitQuery = Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: PAGE_DEFAULT }));
