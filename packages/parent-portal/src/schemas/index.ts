import { SCREENING_WINDOWS } from '@qiraa/assessment';
import { type Static, Type } from 'typebox';
import { SAFE_STOP_CODE } from '../engine/haltLabels';
import { ChildHandle, DateOnly, FirstName, Label, ParentObject, SafeStopCode, Timestamp } from './allowList';

export const tags = ['parent portal'];
export const security = [{ bearerAuth: [] }];

export const ChildParams = Type.Object({ childId: Type.Integer({ minimum: 1, description: 'the child (user id)' }) });

export const RecommendationsQuery = Type.Object(
  {
    window: Type.Optional(
      Type.Unsafe<(typeof SCREENING_WINDOWS)[number]>(
        Type.String({ enum: [...SCREENING_WINDOWS], default: 'BOY', description: 'screening window (default BOY)' }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const ChildEntry = ParentObject({
  childId: ChildHandle(),
  firstName: FirstName(),
  gradeLabel: Label('the grade, in words (الصف الأول …)'),
  schoolName: Label('the school’s name'),
  lastActiveAt: Type.Union([Timestamp('the child’s latest sign-in or recorded activity'), Type.Null()], {
    description: 'null when the child has never been active',
  }),
});
export const ChildrenResponse = Type.Array(ChildEntry, { description: 'the caller’s linked children; [] is valid' });
export type ChildrenResponse = Static<typeof ChildrenResponse>;

export const DiagnosticsResponse = ParentObject({
  firstName: FirstName(),
  entries: Type.Array(
    ParentObject({
      windowLabel: Label('the screening window, in words'),
      completedOn: DateOnly('the day the child finished the diagnostic'),
      statusLabel: Label('one of the four status phrases, or the completed-without-levels label'),
    }),
    { description: 'completed diagnostics, newest first' },
  ),
});
export type DiagnosticsResponse = Static<typeof DiagnosticsResponse>;

export const GrowthResponse = ParentObject({
  firstName: FirstName(),
  domains: Type.Array(
    ParentObject({
      labelAr: Label('the macro-domain'),
      trajectoryLabel: Label('how the domain moved across the year’s windows'),
      windows: Type.Array(
        ParentObject({ windowLabel: Label('the window'), statusLabel: Label('one of the four status phrases') }),
      ),
    }),
    { description: 'macro-domains with a decided status, catalog order' },
  ),
  measures: Type.Array(
    ParentObject({ labelAr: Label('the sub-skill'), statusLabel: Label('one of the four status phrases') }),
    { description: 'the latest window’s decided sub-skills, catalog order' },
  ),
});
export type GrowthResponse = Static<typeof GrowthResponse>;

export const RecommendationsResponse = ParentObject({
  firstName: FirstName(),
  windowLabel: Label('the window the suggestions are for'),
  halted: Type.Boolean({
    description:
      'true on the safe halt (GL-005, also in the x-qiraa-safe-stop header): no active profile, no suggestion',
  }),
  code: Type.Union([SafeStopCode([SAFE_STOP_CODE], 'the safe halt’s code, a machine key never shown'), Type.Null()], {
    description: 'GL-005 on the safe halt, null otherwise',
  }),
  haltMessage: Type.Union([Label('the safe Arabic halt message'), Type.Null()]),
  suggestions: Type.Array(
    ParentObject({
      areaLabel: Label('the macro-domain the suggestion practises'),
      text: Label('the at-home suggestion, in the child’s gender'),
    }),
    { maxItems: 5, description: 'at most five; [] on the halt' },
  ),
});
export type RecommendationsResponse = Static<typeof RecommendationsResponse>;
