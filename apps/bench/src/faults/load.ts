import { performance } from 'node:perf_hooks';
import { type IngestEvent, ingestEvent } from '../gamification/ingest';
import type { FaultWorld } from './world';

/**
 * How much slower than the outage semantics' bounds an answer may be before it counts. `npm run faults` runs
 * alone on a quiet machine with the bounds as the issue sets them (1); the e2e spec runs beside two other test
 * workers on two cores, where a sound server still answers late, so it widens them (FAULTS_TIME_SLACK).
 */
export const timeSlack = (): number => Math.max(1, Number(process.env.FAULTS_TIME_SLACK) || 1);
/** An answer slower than this during an outage is a hang (outage semantics: every request within 2 s). */
export const OUTAGE_ANSWER_MS = 2000;
/**
 * After the fault ends the service has this long to answer 2xx again (outage semantics); a 503 within it is
 * still the outage's (new connections to a PostgreSQL just out of crash recovery can time out on a loaded
 * machine), one after it counts as a 5xx outside the outage.
 */
export const RECOVERY_MS = 5000;
/** Outside an outage a request still has to answer; past this it is a hang. */
export const NORMAL_ANSWER_MS = 10_000;

export interface Tally {
  sent: number;
  /** engineEventIds answered `recorded` (201). */
  acknowledged: Set<string>;
  /** Answers `duplicate`: the same id already had its effect. */
  duplicates: number;
  /** engineEventIds never acknowledged (503, refused connection, cut connection). */
  unacknowledged: Set<string>;
  unavailable503: number;
  fiveHundredsOutsideOutage: number;
  outage500s: number;
  hangs: number;
  refused: number;
  other: string[];
  /** Wall-clock ms at which each outage ended, and the first acknowledged write after it. */
  recoveries: number[];
}

export const newTally = (): Tally => ({
  sent: 0,
  acknowledged: new Set(),
  duplicates: 0,
  unacknowledged: new Set(),
  unavailable503: 0,
  fiveHundredsOutsideOutage: 0,
  outage500s: 0,
  hangs: 0,
  refused: 0,
  other: [],
  recoveries: [],
});

/** Scenario state the loops read: whether an outage (or a process being stopped) is under way. */
export interface Weather {
  outage: boolean;
  /** Requests to a process that is being killed may be refused or cut: not counted as errors. */
  stopping: Set<string>;
  /** Set when an outage ends; cleared by the first acknowledged write after it. */
  recoveringSince: number | null;
  /** When the fault ended (PostgreSQL started, the API restarted): the recovery window runs from here. */
  backAt: number | null;
}

export const clearWeather = (): Weather => ({
  outage: false,
  stopping: new Set(),
  recoveringSince: null,
  backAt: null,
});

export interface LoadOptions {
  world: FaultWorld;
  /** Where each event goes: one base URL, or several (the same event sent to each at once: duplicates). */
  targets: () => string[];
  token: string;
  loops: number;
  prefix: string;
  until: () => boolean;
  tally: Tally;
  weather: Weather;
}

async function postOnce(baseUrl: string, token: string, body: unknown, timeoutMs: number) {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}/api/gamification/mastery-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    const retryAfter = res.headers.get('retry-after');
    return { status: res.status, text, retryAfter, ms: performance.now() - started, error: undefined };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return {
      status: 0,
      text: '',
      retryAfter: null,
      ms: performance.now() - started,
      error: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message),
    };
  }
}

/**
 * `loops` clients posting mastery events until `until()`; every answer tallied. Each client behaves as the
 * service's clients must: an event that got no 2xx (a 503, a refused or cut connection) is sent again with
 * the same engineEventId until it is answered. A write whose COMMIT reached the disk just as PostgreSQL died
 * is stored without an acknowledgement (in doubt, unavoidable for any database client); the retry resolves
 * it as `duplicate`, one effect. `unacknowledged` keeps only the ids still unanswered when the load stopped.
 */
export async function runLoad(options: LoadOptions): Promise<void> {
  const { tally, weather } = options;
  let next = 0;
  const loop = async () => {
    let retrying: IngestEvent | null = null;
    while (!options.until()) {
      const event: IngestEvent =
        retrying ?? ingestEvent(options.prefix, next++, options.world.studentIds, options.world.days);
      const body = { kind: 'mastery_event', ...event };
      const targets = options.targets();
      const outageAtStart = weather.outage;
      const answers = await Promise.all(
        targets.map(async (baseUrl) => {
          tally.sent++;
          const answer = await postOnce(baseUrl, options.token, body, NORMAL_ANSWER_MS + 5000);
          return { baseUrl, ...answer };
        }),
      );
      let recorded = false;
      for (const a of answers) {
        // Until the first acknowledged write after an outage, 503s are still the outage's.
        const recovering =
          weather.recoveringSince !== null ||
          (weather.backAt !== null && performance.now() - weather.backAt < RECOVERY_MS * timeSlack());
        const duringOutage = outageAtStart || weather.outage || recovering;
        const excused = weather.stopping.has(a.baseUrl);
        if (a.ms > (duringOutage ? OUTAGE_ANSWER_MS * timeSlack() : NORMAL_ANSWER_MS) && !excused) {
          tally.hangs++;
          if (process.env.FAULTS_DEBUG) {
            process.stderr.write(`faults: slow ${Math.round(a.ms)} ms ${a.status} ${a.error ?? a.text.slice(0, 80)}\n`);
          }
        }
        if (a.status === 201 || a.status === 200) {
          const outcome = (JSON.parse(a.text) as { outcome?: string }).outcome;
          if (outcome === 'recorded') {
            recorded = true;
            if (tally.acknowledged.has(event.engineEventId)) tally.other.push(`${event.engineEventId} recorded twice`);
            tally.acknowledged.add(event.engineEventId);
          } else if (outcome === 'duplicate') {
            tally.duplicates++;
            // The id has its one effect: an in-doubt write resolved by its retry counts as acknowledged.
            if (retrying) tally.acknowledged.add(event.engineEventId);
          } else tally.other.push(`${a.status} ${a.text.slice(0, 200)}`);
        } else if (a.status === 503 && a.text.includes('"DATABASE_UNAVAILABLE"')) {
          tally.unavailable503++;
          if (!a.retryAfter && tally.other.length < 20) tally.other.push('503 without Retry-After');
          if (!duringOutage && !excused) tally.fiveHundredsOutsideOutage++;
        } else if (a.status === 503 && excused) {
          tally.refused++; // fastify answers 503 to new requests while it closes
        } else if (a.status >= 500) {
          if (duringOutage) tally.outage500s++;
          else if (!excused) tally.fiveHundredsOutsideOutage++;
          else tally.refused++;
          if (tally.other.length < 20) tally.other.push(`${a.status} ${a.text.slice(0, 200)}`);
        } else if (a.status === 0) {
          if (excused) tally.refused++;
          else if (tally.other.length < 20) tally.other.push(`${a.baseUrl}: ${a.error}`);
          if (a.error === 'timeout' && !excused) tally.hangs++;
        } else if (tally.other.length < 20) tally.other.push(`${a.status} ${a.text.slice(0, 200)}`);
      }
      if (recorded) {
        if (weather.recoveringSince !== null && !weather.outage) {
          tally.recoveries.push(performance.now() - weather.recoveringSince);
          weather.recoveringSince = null;
        }
      }
      if (answers.some((a) => a.status === 200 || a.status === 201)) {
        tally.unacknowledged.delete(event.engineEventId);
        retrying = null;
      } else {
        tally.unacknowledged.add(event.engineEventId);
        retrying = event;
        // A client honours the outage: a short pause instead of hammering a server that is down.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  await Promise.all(Array.from({ length: options.loops }, loop));
}
