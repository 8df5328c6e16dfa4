import { Type } from 'typebox';
import { RATE_CUTS } from '../engine/bandedRead';
import { READ_BANDS } from '../engine/bandRead';
import { SCREENING_WINDOWS } from '../engine/calendar';

/** A string enum that TypeBox types as the literal union (OpenAPI shows `enum`). */
export const literals = <T extends string>(values: readonly T[], options: Record<string, unknown> = {}) =>
  Type.Unsafe<T>(Type.String({ enum: [...values], ...options }));

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Unsafe>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const security = [{ bearerAuth: [] }];
export const WindowSchema = literals(SCREENING_WINDOWS, { description: 'screening window' });
export const BandSchema = Type.Union([literals(READ_BANDS), Type.Null()], {
  description: 'beginning | developing | on_track | strong (weakest first); null when not banded',
});

/** The derived fields every banded read answers (word list, oral reading after its stop). */
export const bandFields = {
  wcpm: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
    description: 'words correct per minute over the seconds actually read, one decimal; null when untimed',
  }),
  accuracy: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: 'correct / attempted as a whole percent (0-100)',
  }),
  accuracyBand: BandSchema,
  rateBand: BandSchema,
  band: BandSchema,
  bandBasis: Type.Union([literals(['accuracy', 'rate', 'lower_of'] as const), Type.Null()], {
    description: 'accuracy or rate alone, or the lower of the two bands; null when not banded',
  }),
  skippedReason: Type.Union([literals(['not_banded'] as const), Type.Null()], {
    description: '`not_banded` when no cut applies (empty or missing cut table): the read is stored without a band',
  }),
  rateCut: nullable(
    literals(RATE_CUTS, {
      description:
        'applied: the rate band counts; withheld_in_window: the table withholds its rate cut in this window; ' +
        'no_norm: no rate cut for the grade and window (or an untimed read)',
    }),
  ),
  provisional: Type.Union([Type.Boolean(), Type.Null()], {
    description: 'true when the cut table or the measure is still being normed, or no cut table applied',
  }),
  cutVersion: Type.Union([Type.String(), Type.Null()], { description: 'the pinned read-cut version' }),
};
