import { client, PASSWORD, type TestApp } from '@qiraa/app/testing';
import { auditEvents } from '@qiraa/audit';
import { expect } from 'vitest';

/** Helpers for the identity route specs: fresh classes, students and users made through the HTTP API. */
export function testKit(t: TestApp) {
  let serial = 0;
  const as = (token?: string) => client(t.app, token);

  async function ok<T = Record<string, unknown>>(
    response: Promise<{ statusCode: number; body: string; json(): unknown }>,
    status = 201,
  ): Promise<T> {
    const res = await response;
    expect(res.statusCode, res.body).toBe(status);
    return res.json() as T;
  }

  return {
    as,
    ok,
    /** A new class in the school, created by an organization admin. */
    async newClass(adminToken: string, schoolId: string) {
      serial += 1;
      return ok<{ id: string; loginCode: string; loginCodeExpiresAt: string }>(
        as(adminToken).post('/api/classes', {
          schoolId,
          name: `صف ${serial}`,
          grade: 3,
          academicYear: '2026-2027',
        }),
      );
    },
    /** Enrolls a student through the roster route. */
    async enroll(token: string, classId: string, quickCode?: string) {
      serial += 1;
      return ok<{ studentId: number; quickCode: string }>(
        as(token).post(`/api/classes/${classId}/students`, {
          fullNameAr: `طالب ${lettersOf(serial)}`,
          ...(quickCode ? { quickCode } : {}),
        }),
      );
    },
    /** A new adult user of the organization and an access token for them. */
    async newAdult(adminToken: string, organizationId: string, persona: 'TEACHER' | 'PARENT' | 'ADMIN') {
      serial += 1;
      const email = `${persona.toLowerCase()}-${serial}-${organizationId.slice(4).toLowerCase()}@kit.test`;
      const { id } = await ok<{ id: number }>(
        as(adminToken).post('/api/users', {
          primaryPersona: persona,
          email,
          password: PASSWORD,
          fullNameAr: `مستخدم ${serial}`,
          organizationId,
        }),
      );
      const { accessToken } = await ok<{ accessToken: string }>(
        as().post('/api/auth/login', { email, password: PASSWORD }),
        200,
      );
      return { id, email, token: accessToken };
    },
    /** Student login from a given source address. */
    quickcode(body: Record<string, unknown>, remoteAddress = '127.0.0.1') {
      return t.app.inject({ method: 'POST', url: '/api/auth/student/quickcode', payload: body, remoteAddress });
    },
    /** Makes a class's current code lapse (time travel: its expiry is set in the past). */
    async lapseCode(classId: string) {
      await t.db.sql`update classes set login_code_expires_at = now() - interval '1 day' where id = ${classId}`;
      await t.db.sql`update class_login_codes set expires_at = now() - interval '1 day'
                     where class_id = ${classId} and superseded_at is null`;
    },
    /** Audit entries of an organization's stream, of one event type. */
    async auditEvents(organizationId: string, eventType: string) {
      const events = await t.runtime.store.readStream(`audit-${organizationId}`);
      return auditEvents(events)
        .map((e) => e.data)
        .filter((d) => d.eventType === eventType);
    },
  };
}

/** A serial as Arabic letters (one per digit): a child's name holds letters only (PersonName). */
const lettersOf = (n: number) => [...String(n)].map((d) => 'أبتثجحخدذر'[Number(d)]).join('');
