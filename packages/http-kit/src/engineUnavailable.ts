import { ApiError } from './apiError';

export const ENGINE_UNAVAILABLE = 'ENGINE_UNAVAILABLE';

/** Which rules failed: the scoring cut tables (PostgreSQL) or the decision rule set (rules/*.json). */
export type Engine = 'scoring' | 'decision';

/**
 * The diagnostic or scoring engine cannot run: its rules cannot be loaded (a cut table missing or unreadable, a
 * decision rule set absent or malformed) or evaluated. Spec error table: 503 `ENGINE_UNAVAILABLE`. Nothing is
 * recorded by the request that hit it; the caller tries again later. The database being down is not this: it
 * stays the outage answer.
 */
export class EngineUnavailableError extends Error {
  readonly code = ENGINE_UNAVAILABLE;

  constructor(
    readonly engine: Engine,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EngineUnavailableError';
  }

  toApiError(): ApiError {
    return new ApiError(
      503,
      ENGINE_UNAVAILABLE,
      `the ${this.engine} engine is unavailable; nothing was recorded, try again later`,
    );
  }
}

/**
 * SQLSTATEs of rules that are not there to read: class 42 (a table or column missing, no privilege on it) and a
 * stored rule the column type cannot hold. A lost connection is not among them.
 */
const RULES_UNREADABLE = /^(42|22|XX)/;

/**
 * Runs a read of engine rules; a failure that says the rules cannot be read becomes `EngineUnavailableError`,
 * anything else (the database down, a timeout) passes unchanged.
 */
export async function readEngineRules<T>(engine: Engine, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const e = error as { name?: string; code?: unknown };
    if (e?.name === 'PostgresError' && typeof e.code === 'string' && RULES_UNREADABLE.test(e.code)) {
      throw new EngineUnavailableError(engine, `${what} cannot be read: ${(error as Error).message}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Runs an evaluation of engine rules (pure code over rules and evidence) at request time. Whatever it throws
 * that is not already an answer (an `ApiError`, an error that maps to one) means the rules could not be
 * evaluated: `EngineUnavailableError`, 503, never a 500. Nothing has been written yet when an engine
 * evaluates, so the caller's transaction rolls back with it.
 */
export function evaluateEngineRules<T>(engine: Engine, what: string, evaluate: () => T): T {
  try {
    return evaluate();
  } catch (error) {
    if (error instanceof ApiError || typeof (error as { toApiError?: unknown })?.toApiError === 'function') throw error;
    throw new EngineUnavailableError(engine, `${what} could not be evaluated: ${(error as Error)?.message}`, {
      cause: error,
    });
  }
}
