import { performance } from 'node:perf_hooks';
import type { LoadWorld } from './seed';

/** One kind of request a real user of the service makes, with its share of the mix. */
export interface Operation {
  readonly name: string;
  readonly weight: number;
  run(client: number, serial: number): Promise<Response>;
}

export interface Tokens {
  admin: string;
  teachers: string[];
  students: Map<number, string>;
}

const json = { 'content-type': 'application/json' };

/**
 * The mix: students signing in and looking at their profile (the practice screens' reads), teachers reading
 * their classes, rosters, boards and inbox, and the decision engine sending mastery events.
 */
export function operations(baseUrl: string, world: LoadWorld, tokens: Tokens, runTag: string): Operation[] {
  const allStudents = world.classes.flatMap((c, classIndex) => c.students.map((s) => ({ ...s, classIndex })));
  const pick = <T>(list: readonly T[], n: number) => list[n % list.length]!;
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  return [
    {
      name: 'student sign-in (quick code)',
      weight: 10,
      run: (client, serial) => {
        const s = pick(allStudents, client * 7919 + serial);
        const cls = world.classes[s.classIndex]!;
        return fetch(`${baseUrl}/api/auth/student/quickcode`, {
          method: 'POST',
          // A classroom tablet each: the per-source window keys on the client address.
          headers: { ...json, 'x-forwarded-for': `10.${(s.id >> 16) & 255}.${(s.id >> 8) & 255}.${s.id & 255}` },
          body: JSON.stringify({ classCode: cls.loginCode, quickCode: s.quickCode }),
        });
      },
    },
    {
      name: 'student profile',
      weight: 35,
      run: (client, serial) => {
        const s = pick(allStudents, client * 104729 + serial);
        return fetch(`${baseUrl}/api/students/${s.id}/gamification/profile`, {
          headers: auth(tokens.students.get(s.id)!),
        });
      },
    },
    {
      name: 'teacher class board',
      weight: 10,
      run: (client, serial) => {
        const c = (client + serial) % world.classes.length;
        return fetch(`${baseUrl}/api/leaderboards/class/${world.classes[c]!.id}?windowDays=14`, {
          headers: auth(tokens.teachers[c]!),
        });
      },
    },
    {
      name: 'teacher roster',
      weight: 10,
      run: (client, serial) => {
        const c = (client + serial) % world.classes.length;
        return fetch(`${baseUrl}/api/classes/${world.classes[c]!.id}/students`, { headers: auth(tokens.teachers[c]!) });
      },
    },
    {
      name: 'teacher classes',
      weight: 5,
      run: (client, serial) =>
        fetch(`${baseUrl}/api/classes`, { headers: auth(pick(tokens.teachers, client + serial)) }),
    },
    {
      name: 'teacher unread count',
      weight: 15,
      run: (client, serial) =>
        fetch(`${baseUrl}/api/notifications/unread-count`, { headers: auth(pick(tokens.teachers, client + serial)) }),
    },
    {
      name: 'mastery ingest',
      weight: 15,
      run: (client, serial) => {
        const s = pick(allStudents, client * 31 + serial);
        return fetch(`${baseUrl}/api/gamification/mastery-events`, {
          method: 'POST',
          headers: { ...json, ...auth(tokens.admin) },
          body: JSON.stringify({
            kind: 'mastery_event',
            engineEventId: `load-${runTag}-${client}-${serial}`,
            studentId: s.id,
            sourceKind: pick(['band_progression', 'subskill_state_up', 'cbm_trend_above_goal'], serial),
            occurredAt: new Date().toISOString(),
            sessionId: `load-${runTag}-${s.id}-${Math.floor(serial / 5)}`,
          }),
        });
      },
    },
  ];
}

export interface OperationResult {
  latenciesMs: number[];
  errors: number;
  firstError?: string;
}

/** `clients` loops, each choosing operations by weight, until `seconds` have passed. */
export async function runMix(ops: readonly Operation[], clients: number, seconds: number) {
  const total = ops.reduce((sum, op) => sum + op.weight, 0);
  const results = new Map<string, OperationResult>(ops.map((op) => [op.name, { latenciesMs: [], errors: 0 }]));
  const end = performance.now() + seconds * 1000;
  const choose = (r: number) => {
    let left = r * total;
    for (const op of ops) {
      left -= op.weight;
      if (left < 0) return op;
    }
    return ops[ops.length - 1]!;
  };
  // A fixed pseudo-random sequence per client, so two runs send the same mix.
  const loop = async (client: number) => {
    let state = (client + 1) * 2654435761;
    for (let serial = 0; performance.now() < end; serial++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      const op = choose(state / 2 ** 31);
      const result = results.get(op.name)!;
      const t0 = performance.now();
      try {
        const res = await op.run(client, serial);
        const body = await res.text();
        result.latenciesMs.push(performance.now() - t0);
        if (res.status >= 400) {
          result.errors += 1;
          result.firstError ??= `HTTP ${res.status} ${body.slice(0, 200)}`;
        }
      } catch (error) {
        result.errors += 1;
        result.firstError ??= (error as Error).message;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, c) => loop(c)));
  return { results, elapsedMs: performance.now() - start };
}
