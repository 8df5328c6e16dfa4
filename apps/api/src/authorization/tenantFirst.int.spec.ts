import { client, useTestWorld } from '@qiraa/app/testing';
import { identityContext } from '@qiraa/identity';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const { t, w } = useTestWorld();

/** The four routes an outside suite found answering 403 to another organization's teacher (issue 10). */
describe('tenant before permission: another organization is 404, the own organization 403', () => {
  const freshClass = async () =>
    (
      await client(t.app, w.superToken).post('/api/classes', {
        schoolId: w.a.schoolId,
        name: 'صف',
        grade: 2,
        academicYear: '2026-2027',
      })
    ).json().id as string;

  it('DELETE /api/classes/{classId}: 404 for organization B’s teacher, 403 for A’s; the class stays', async () => {
    const classId = await freshClass();
    const outsider = await client(t.app, w.b.teacherToken).delete(`/api/classes/${classId}`);
    expect(outsider.statusCode, outsider.body).toBe(404);
    expect(outsider.json().code).toBe('NOT_FOUND');
    expect((await client(t.app, w.a.teacherToken).delete(`/api/classes/${classId}`)).statusCode).toBe(403);
    expect((await client(t.app, w.a.adminToken).get(`/api/classes/${classId}/teachers`)).statusCode).toBe(200);
  });

  it('POST /api/classes/{classId}/teachers: 404 for organization B’s teacher, 403 for A’s; nothing assigned', async () => {
    const classId = await freshClass();
    const body = { teacherUserId: w.a.teacherId };
    const outsider = await client(t.app, w.b.teacherToken).post(`/api/classes/${classId}/teachers`, body);
    expect(outsider.statusCode, outsider.body).toBe(404);
    expect((await client(t.app, w.a.teacherToken).post(`/api/classes/${classId}/teachers`, body)).statusCode).toBe(403);
    expect((await client(t.app, w.a.adminToken).get(`/api/classes/${classId}/teachers`)).json()).toEqual([]);
  });

  it('GET /api/admin/gamification/audit: 404 for organization B’s teacher, 403 for A’s', async () => {
    const url = `/api/admin/gamification/audit?studentId=${w.a.studentId}`;
    const outsider = await client(t.app, w.b.teacherToken).get(url);
    expect(outsider.statusCode, outsider.body).toBe(404);
    expect((await client(t.app, w.a.teacherToken).get(url)).statusCode).toBe(403);
  });

  it('POST /api/admin/gamification/replay: 404 for organization B’s teacher, 403 for A’s', async () => {
    const body = { studentId: w.a.studentId, asOf: new Date().toISOString() };
    const outsider = await client(t.app, w.b.teacherToken).post('/api/admin/gamification/replay', body);
    expect(outsider.statusCode, outsider.body).toBe(404);
    expect((await client(t.app, w.a.teacherToken).post('/api/admin/gamification/replay', body)).statusCode).toBe(403);
  });

  it('refuses to register a route with anyPermission on a path parameter but no target check', async () => {
    const app = Fastify({ logger: false });
    const load = async () => {
      await app.register(async (api) => {
        await api.register(identityContext.plugins!(t.runtime.deps));
        api.delete('/probe/:classId', { config: { anyPermission: ['MANAGE_ORG'] } }, async () => null);
      });
      await app.ready();
    };
    await expect(load()).rejects.toThrow(/needs config\.target/);
    await app.close().catch(() => undefined);
  });
});
