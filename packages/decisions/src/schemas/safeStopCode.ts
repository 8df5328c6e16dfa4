import { Type } from 'typebox';

/**
 * The error table's code of a safe stop ("DO_NOT_DECIDE_YET | 200 | safe stop, not a failure"): every row or
 * body that answers the `do_not_decide_yet` safe stop carries it as `code`, null otherwise, so a client reads the
 * same machine key it would read from an error envelope.
 */
export const DO_NOT_DECIDE_YET = 'DO_NOT_DECIDE_YET' as const;

export const safeStopCode = (held: boolean): typeof DO_NOT_DECIDE_YET | null => (held ? DO_NOT_DECIDE_YET : null);

export const SafeStopCodeSchema = (when: string) =>
  Type.Union([Type.Literal(DO_NOT_DECIDE_YET), Type.Null()], {
    description: `DO_NOT_DECIDE_YET (the error table’s safe-stop code, status 200) ${when}; null otherwise`,
  });
