import { performance } from 'node:perf_hooks';
import { call } from '../gamification/api';
import { percentile } from '../measure';
import { SETUP } from '../roundTrips';

interface SittingState {
  sittingId: string | null;
  completed: boolean;
  item: { id: string; options: { key: string }[] } | null;
  reason?: string;
}

export interface MorningTiming {
  students: number;
  answers: number;
  elapsedMs: number;
  answersPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  completed: number;
}

/**
 * A screening morning: every student starts a sitting at once and answers every question as soon as the
 * previous answer came back (one loop per student, all in flight together). Answers pick an option by a
 * fixed rule, so results vary across students; latency is per answer request.
 */
export async function screeningMorning(baseUrl: string, tokens: readonly string[]): Promise<MorningTiming> {
  const latencies: number[] = [];
  let completed = 0;
  const sit = async (token: string, s: number) => {
    let state = await call<SittingState>(baseUrl, 'POST', '/api/diagnostic-sessions/start', {
      token,
      body: {},
      expect: [200, 201],
    });
    if (!state.sittingId || !state.item) throw new Error(`no sitting served: ${state.reason ?? 'no item'}`);
    for (let q = 0; state.item && !state.completed; q++) {
      const options = state.item.options;
      const answer = options[(s + q) % options.length]!.key;
      const t0 = performance.now();
      state = await call<SittingState>(baseUrl, 'POST', `/api/diagnostic-sessions/${state.sittingId}/answers`, {
        token,
        body: { itemId: state.item.id, answer },
        expect: [200, 201],
      });
      latencies.push(performance.now() - t0);
    }
    if (state.completed) completed += 1;
  };
  const start = performance.now();
  await Promise.all(tokens.map((token, s) => sit(token, s)));
  const elapsedMs = performance.now() - start;
  latencies.sort((a, b) => a - b);
  return {
    students: tokens.length,
    answers: latencies.length,
    elapsedMs,
    answersPerSecond: (latencies.length / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    completed,
  };
}

/**
 * Sittings answered one answer at a time, as a command source for `perCommand`: each call answers the question
 * served now; a call that has to start a sitting (the first, and the next student's when one completes)
 * answers nothing and returns SETUP.
 */
export function sittingAnswers(baseUrl: string, tokens: readonly string[]): () => Promise<typeof SETUP | undefined> {
  let state: SittingState | null = null;
  let student = 0;
  let current = '';
  return async () => {
    if (!state?.item || state.completed) {
      const token = tokens[student++];
      if (!token) throw new Error('no student left to sit');
      state = await call<SittingState>(baseUrl, 'POST', '/api/diagnostic-sessions/start', {
        token,
        body: {},
        expect: [200, 201],
      });
      if (!state.sittingId || !state.item) throw new Error(`no sitting served: ${state.reason ?? 'no item'}`);
      current = token;
      return SETUP;
    }
    state = await call<SittingState>(baseUrl, 'POST', `/api/diagnostic-sessions/${state.sittingId}/answers`, {
      token: current,
      body: { itemId: state.item.id, answer: state.item.options[0]!.key },
      expect: [200, 201],
    });
    return undefined;
  };
}
