import { buildWorld, type Client, client, useTestApp, type World } from '@qiraa/app/testing';
import { recordAuditEvent } from '@qiraa/audit';
import { beforeAll, describe, expect, it } from 'vitest';

const t = useTestApp();
let w: World;
let superAdmin: Client;
let adminA: Client;
let adminB: Client;
const as = (token: string): Client => client(t.app, token);
const LIST = '/api/admin/audit-log';

interface Entry {
  id: string;
  eventType: string;
  organizationId: string | null;
  actorUserId: number | null;
  targetStudentId: number | null;
  targetClassId: string | null;
  detail: Record<string, unknown>;
  occurredAt: string;
}
const ids = (items: Entry[]) => items.map((e) => e.id);

/** Fixture entries, written the way producers write them, at fixed times (newest: 10:05 in org A). */
let voidEntry: string;
let entryA: string;
let entryB: string;
const PAGING = 7;

beforeAll(async () => {
  // Projections run as in the server: asynchronously after each append (tests wait with expect.poll or catchUp).
  await t.runtime.projector.start();
  w = await buildWorld(t);
  superAdmin = as(w.superToken);
  adminA = as(w.a.adminToken);
  adminB = as(w.b.adminToken);
  const at = (minute: number) => new Date(Date.UTC(2026, 8, 1, 10, minute));
  const store = t.runtime.store;
  voidEntry = (
    await recordAuditEvent(store, {
      auditId: 'void:12',
      eventType: 'measurement_void',
      organizationId: w.a.id,
      actorUserId: w.a.teacherId,
      targetStudentId: w.a.studentId,
      targetClassId: w.a.classId,
      detail: { voidKind: 'oral_text', voidReason: 'started_by_mistake' },
      occurredAt: at(1),
    })
  ).auditId;
  entryA = (
    await recordAuditEvent(store, {
      eventType: 'class_login_code_rotated',
      organizationId: w.a.id,
      actorUserId: w.a.teacherId,
      targetClassId: w.a.classId,
      detail: { detail: 'manual' },
      occurredAt: at(2),
    })
  ).auditId;
  entryB = (
    await recordAuditEvent(store, {
      eventType: 'class_login_code_rotated',
      organizationId: w.b.id,
      actorUserId: w.b.teacherId,
      targetClassId: w.b.classId,
      detail: { detail: 'expired_on_copy' },
      occurredAt: at(3),
    })
  ).auditId;
  // Two share a timestamp: the id breaks the tie.
  for (let i = 0; i < PAGING; i++) {
    await recordAuditEvent(store, {
      eventType: 'paging_probe',
      organizationId: w.a.id,
      actorUserId: w.a.teacherId,
      detail: { n: i },
      occurredAt: at(Math.min(i, 5) + 10),
    });
  }
  await t.runtime.projector.catchUp();
});

describe('GET /api/admin/audit-log', () => {
  it('records a super_bypass entry for a super-scope administrator call, readable in the log', async () => {
    const me = (await superAdmin.get('/api/auth/me')).json() as { id: number };
    const bypasses = async () => {
      const res = await superAdmin.get(`${LIST}?eventType=super_bypass&actorUserId=${me.id}&limit=200`);
      return (res.json().items as Entry[]).filter((e) => e.detail.route === '/api/auth/me');
    };
    await expect.poll(async () => (await bypasses()).length, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
    expect((await bypasses())[0]).toMatchObject({
      id: expect.stringMatching(/^audit:[0-9a-f-]{36}$/),
      eventType: 'super_bypass',
      organizationId: null,
      actorUserId: me.id,
      detail: { method: 'GET', route: '/api/auth/me' },
    });
  });

  it("shows an organization administrator their own organization's entries only", async () => {
    const res = await adminA.get(`${LIST}?limit=200`);
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Entry[];
    expect(ids(items)).toEqual(expect.arrayContaining([voidEntry, entryA]));
    expect(items.every((e) => e.organizationId === w.a.id)).toBe(true);
  });

  it('lets the super-scope administrator see every organization and filter by one', async () => {
    const all = ids((await superAdmin.get(`${LIST}?eventType=class_login_code_rotated`)).json().items);
    expect(all).toEqual(expect.arrayContaining([entryA, entryB]));
    const onlyB = (await superAdmin.get(`${LIST}?eventType=class_login_code_rotated&organizationId=${w.b.id}`)).json();
    expect(ids(onlyB.items)).toEqual([entryB]);
  });

  it('answers 404 when an organization administrator asks for another organization', async () => {
    const res = await adminA.get(`${LIST}?organizationId=${w.b.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('is for RUN_BACKOFFICE holders: other personas get 403 PERMISSION_DENIED', async () => {
    for (const token of [w.a.teacherToken, w.a.principalToken, w.a.managerToken, w.a.parentToken]) {
      const res = await as(token).get(LIST);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PERMISSION_DENIED');
    }
  });

  it('needs a bearer token (401)', async () => {
    expect((await client(t.app).get(LIST)).statusCode).toBe(401);
  });

  it('filters by event type', async () => {
    const items = (await adminA.get(`${LIST}?eventType=measurement_void`)).json().items as Entry[];
    expect(ids(items)).toEqual([voidEntry]);
  });

  it('filters by actor and by target student', async () => {
    const byActor = (await adminB.get(`${LIST}?actorUserId=${w.b.teacherId}`)).json().items as Entry[];
    expect(ids(byActor)).toEqual([entryB]);
    const byStudent = (await adminA.get(`${LIST}?targetStudentId=${w.a.studentId}`)).json().items as Entry[];
    expect(ids(byStudent)).toEqual([voidEntry]);
  });

  it('filters by time: from inclusive, to exclusive', async () => {
    const res = await adminA.get(`${LIST}?from=2026-09-01T10:01:00Z&to=2026-09-01T10:02:00Z`);
    expect(ids(res.json().items)).toEqual([voidEntry]);
    const later = await adminA.get(`${LIST}?from=2026-09-01T10:02:00Z&to=2026-09-01T10:03:00Z`);
    expect(ids(later.json().items)).toEqual([entryA]);
  });

  it('pages with an opaque cursor, newest first, every entry once, then nextCursor null', async () => {
    const seen: Entry[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `${LIST}?eventType=paging_probe&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await adminA.get(query);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { items: Entry[]; nextCursor: string | null };
      expect(body.items.length).toBeLessThanOrEqual(3);
      seen.push(...body.items);
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((e) => e.detail.n).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const keys = seen.map((e) => [e.occurredAt, e.id].join(' '));
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('uses a page of 50 by default and refuses more than 200 (422)', async () => {
    for (let i = 0; i < 55; i++) await superAdmin.get('/api/auth/me'); // 55 super_bypass entries
    await t.runtime.projector.catchUp();
    const page = (await superAdmin.get(`${LIST}?eventType=super_bypass`)).json();
    expect(page.items).toHaveLength(50);
    expect(page.nextCursor).toEqual(expect.any(String));
    const res = await superAdmin.get(`${LIST}?limit=201`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['limit']);
  });

  it('refuses a cursor it did not issue (422)', async () => {
    const forged = Buffer.from('{"not":"a cursor"}').toString('base64url');
    const res = await adminA.get(`${LIST}?cursor=${forged}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'cursor', issue: expect.any(String) }]);
  });
});

describe('GET /api/admin/audit-log/{id}', () => {
  it('reads one entry, including a void:<int> one with its void fields', async () => {
    const res = await adminA.get(`${LIST}/void:12`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: 'void:12',
      eventType: 'measurement_void',
      organizationId: w.a.id,
      actorUserId: w.a.teacherId,
      targetStudentId: w.a.studentId,
      targetClassId: w.a.classId,
      detail: { voidKind: 'oral_text', voidReason: 'started_by_mistake' },
      occurredAt: '2026-09-01T10:01:00.000Z',
    });
  });

  it("answers 404 for another organization's entry, exactly like a missing one", async () => {
    const other = await adminA.get(`${LIST}/${entryB}`);
    const missing = await adminA.get(`${LIST}/audit:00000000-0000-4000-8000-000000000000`);
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it('lets the super-scope administrator read any organization’s entry', async () => {
    const res = await superAdmin.get(`${LIST}/${entryB}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: entryB, organizationId: w.b.id });
  });

  it('refuses an id that is not an audit id (422)', async () => {
    const res = await adminA.get(`${LIST}/${encodeURIComponent('not an id')}`);
    expect(res.statusCode).toBe(422);
  });
});
