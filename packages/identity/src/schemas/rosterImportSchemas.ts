import { Type } from 'typebox';
import { ENTITY_KINDS, ROSTER_ERROR_CODES } from '../engine/rosterTypes';

const Count = Type.Integer({ minimum: 0 });
const EntityCounts = Type.Object({ create: Count, update: Count, deactivate: Count, unchanged: Count });
const RosterCounts = Type.Object(Object.fromEntries(ENTITY_KINDS.map((kind) => [kind, EntityCounts])));

export const RosterImportReport = Type.Object(
  {
    id: Type.String({ pattern: '^rim_[a-z0-9]{16}$' }),
    organizationId: Type.String(),
    format: Type.Union([Type.Literal('oneroster'), Type.Literal('simple')]),
    dryRun: Type.Boolean(),
    deactivateMissing: Type.Boolean(),
    academicYear: Type.Union([Type.String(), Type.Null()], { description: 'the year of OneRoster classes' }),
    status: Type.Union(['dry_run', 'applied', 'partially_applied', 'not_applied'].map((s) => Type.Literal(s))),
    counts: RosterCounts,
    schools: Type.Array(
      Type.Object({
        schoolId: Type.Union([Type.String(), Type.Null()]),
        sourcedId: Type.Union([Type.String(), Type.Null()]),
        name: Type.Union([Type.String(), Type.Null()]),
        outcome: Type.Union(['applied', 'would_apply', 'not_applied', 'failed'].map((s) => Type.Literal(s))),
        counts: RosterCounts,
      }),
    ),
    errorCount: Count,
    errors: Type.Array(
      Type.Object({
        file: Type.String(),
        line: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
        field: Type.Union([Type.String(), Type.Null()]),
        code: Type.Union(ROSTER_ERROR_CODES.map((c) => Type.Literal(c))),
        message: Type.String(),
      }),
    ),
    errorsTruncated: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'RosterImportReport' },
);

export const RosterImportQuery = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ default: false, description: 'report only; nothing is written' })),
  deactivateMissing: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'deactivate the children of the schools the file covers that the file no longer names',
    }),
  ),
  organizationId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: "default: the caller's organization; the super-scope administrator must name one",
    }),
  ),
  academicYear: Type.Optional(
    Type.String({ pattern: '^\\d{4}-\\d{4}$', description: "OneRoster classes' academic year; default: today's" }),
  ),
});
