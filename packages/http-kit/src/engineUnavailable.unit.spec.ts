import { describe, expect, it } from 'vitest';
import { ApiError } from './apiError';
import { EngineUnavailableError, evaluateEngineRules } from './engineUnavailable';
import { toApiError } from './errorMapper';

const request = { routeOptions: { config: {} } } as never;

describe('evaluateEngineRules', () => {
  it('passes the evaluation’s value through', () => {
    expect(evaluateEngineRules('decision', 'rules', () => 42)).toBe(42);
  });

  it('turns a throw of the evaluation into 503 ENGINE_UNAVAILABLE, never a 500', () => {
    let thrown: unknown;
    try {
      evaluateEngineRules('scoring', 'the read banding', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'min')");
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EngineUnavailableError);
    const answer = toApiError(thrown, request);
    expect([answer.status, answer.code]).toEqual([503, 'ENGINE_UNAVAILABLE']);
  });

  it('lets an answer the evaluation chose pass unchanged', () => {
    const refusal = new ApiError(409, 'CONFLICT', 'no');
    expect(() =>
      evaluateEngineRules('decision', 'rules', () => {
        throw refusal;
      }),
    ).toThrow(refusal);
  });
});
