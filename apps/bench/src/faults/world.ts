import { connect } from '@qiraa/db';
import { recentSchoolDays } from '../gamification/schoolDays';
import { BENCH_PASSWORD, createBenchOrganization, enrolledSchool } from '../gamification/tenants';

export interface FaultWorld {
  readonly studentIds: readonly number[];
  readonly days: readonly string[];
  /** An organization admin's access token (it may ingest mastery events). */
  token(baseUrl: string): Promise<string>;
}

/** One organization with `students` enrolled students, in the database an API has already migrated. */
export async function seedWorld(databaseUrl: string, students = 24): Promise<FaultWorld> {
  const sql = connect(databaseUrl, { max: 2 });
  try {
    const org = await createBenchOrganization(sql);
    const { studentIds } = await enrolledSchool(sql, org, 'مدرسة الأعطال', students);
    return {
      studentIds,
      days: recentSchoolDays(3, org.timeZone),
      async token(baseUrl) {
        const res = await fetch(`${baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: org.adminEmail, password: BENCH_PASSWORD }),
          signal: AbortSignal.timeout(10_000),
        });
        if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { accessToken: string }).accessToken;
      },
    };
  } finally {
    await sql.end({ timeout: 2 });
  }
}
