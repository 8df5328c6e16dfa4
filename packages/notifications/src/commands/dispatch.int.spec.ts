import { randomUUID } from 'node:crypto';
import { client, useTestWorld } from '@qiraa/app/testing';
import { ApiError } from '@qiraa/http-kit';
import { LanguageSafetyBlockedError, loadLanguageSafety } from '@qiraa/language-safety';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, type NotificationKind } from '../schemas/notificationKinds';
import { SAMPLE_PAYLOADS } from '../schemas/samplePayloads';
import {
  type DispatchDeps,
  dispatch,
  dispatchToClass,
  dispatchToStudent,
  lookupKind,
  renderTemplate,
} from './dispatch';

const { t, w } = useTestWorld();
let deps: DispatchDeps;
const logged: { object: Record<string, unknown>; message: string }[] = [];

beforeAll(async () => {
  deps = {
    sql: t.runtime.deps.sql,
    store: t.runtime.deps.store,
    logger: { error: (object, message) => logged.push({ object, message }) },
  };
}, 120_000);

const rowCount = async () => (await t.db.sql<{ n: number }[]>`select count(*)::int as n from notifications`)[0]!.n;

async function newTeacher(): Promise<{ id: number; token: string }> {
  const email = `inbox-${randomUUID().slice(0, 8)}@amal-jo.test`;
  const created = await client(t.app, w.superToken).post('/api/users', {
    primaryPersona: 'TEACHER',
    email,
    password: 'correct horse battery',
    fullNameAr: 'معلمة',
    organizationId: w.a.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  const login = await client(t.app).post('/api/auth/login', { email, password: 'correct horse battery' });
  return { id: created.json().id, token: login.json().accessToken };
}

async function send(recipientUserId: number, kind: NotificationKind = 'skill_alert_assigned') {
  const result = await dispatch(deps, { recipientUserId, kind, payload: SAMPLE_PAYLOADS[kind] });
  if (result.outcome !== 'dispatched') throw new Error(result.outcome);
  return result.notificationId;
}

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('kind catalog', () => {
  it('holds the 11 kinds of the spec with their retention', async () => {
    const rows = await t.db.sql<{ kind: string; retention_days: number; default_persona: string }[]>`
      select kind, retention_days, default_persona from notification_kinds order by kind`;
    expect(rows.map((r) => r.kind).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    const retention = Object.fromEntries(rows.map((r) => [r.kind, r.retention_days]));
    expect(retention['training_no_progress']).toBe(30);
    expect(retention['training_support_review_suggested']).toBe(30);
    expect(retention['parent_tsp_activation']).toBe(90);
  });

  it.each(NOTIFICATION_KINDS)('%s renders with a valid payload and passes both tiers', async (kind) => {
    const filter = await loadLanguageSafety(t.db.sql);
    const catalog = await lookupKind(t.db.sql, kind);
    const payload = SAMPLE_PAYLOADS[kind] as Record<string, unknown>;
    for (const template of [catalog.titleTemplate, catalog.bodyTemplate]) {
      const text = renderTemplate(template, payload);
      expect(text).not.toMatch(/\{\{|\}\}/);
      expect(filter.check(text, 'general'), text).toEqual({ kind: 'pass' });
      expect(filter.check(text, 'parent'), text).toEqual({ kind: 'pass' });
    }
  });

  it('renders deterministically', () => {
    const payload = { studentName: 'سارة', skillLabelAr: 'الطلاقة' };
    const template = '{{studentName}} و {{ skillLabelAr }} و {{studentName}}';
    expect(renderTemplate(template, payload)).toBe('سارة و الطلاقة و سارة');
    expect(renderTemplate(template, payload)).toBe(renderTemplate(template, payload));
  });
});

describe('dispatch steps', () => {
  it('dispatches a training kind with its source entity and projects the row inline', async () => {
    const result = await dispatch(deps, {
      recipientUserId: w.a.teacherId,
      kind: 'training_no_progress',
      payload: SAMPLE_PAYLOADS.training_no_progress,
    });
    expect(result.outcome).toBe('dispatched');
    if (result.outcome !== 'dispatched') return;
    const [row] = await t.db.sql<
      Record<string, unknown>[]
    >`select * from notifications where id = ${result.notificationId}`;
    expect(row).toMatchObject({
      kind: 'training_no_progress',
      severity: 'action_required',
      organization_id: w.a.id,
      delivery_state: 'delivered_in_app',
      source_entity_type: 'training_progress_alert',
      source_entity_id: SAMPLE_PAYLOADS.training_no_progress.alertId,
    });
    const events = await t.runtime.deps.store.readStream(`notification-${w.a.teacherId}`);
    expect(events.some((e) => e.type === 'NotificationDispatched')).toBe(true);
  });

  it('a dedupe key makes a re-dispatch (also in parallel) write nothing: same id, one row', async () => {
    const teacher = await newTeacher();
    const input = {
      recipientUserId: teacher.id,
      kind: 'skill_alert_assigned',
      payload: SAMPLE_PAYLOADS.skill_alert_assigned,
      dedupeKey: 'alert-step-1',
    };
    const results = await Promise.all([dispatch(deps, input), dispatch(deps, input), dispatch(deps, input)]);
    const ids = new Set(results.map((r) => (r.outcome === 'dispatched' ? r.notificationId : r.outcome)));
    expect(ids.size).toBe(1);
    const rows = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from notifications where recipient_user_id = ${teacher.id}`;
    expect(rows[0]!.n).toBe(1);
    const other = await dispatch(deps, { ...input, dedupeKey: 'alert-step-2' });
    expect(other.outcome === 'dispatched' && ids.has(other.notificationId)).toBe(false);
  });

  it('(1) unknown or inactive kind → 422 unknown_kind, no row', async () => {
    const before = await rowCount();
    const unknown = await apiErrorOf(dispatch(deps, { recipientUserId: w.a.teacherId, kind: 'nope', payload: {} }));
    expect(unknown).toMatchObject({ status: 422, reason: 'unknown_kind' });
    await t.db.sql`update notification_kinds set active = false where kind = 'dismissal_expiry'`;
    try {
      const inactive = await apiErrorOf(
        dispatch(deps, {
          recipientUserId: w.a.teacherId,
          kind: 'dismissal_expiry',
          payload: SAMPLE_PAYLOADS.dismissal_expiry,
        }),
      );
      expect(inactive).toMatchObject({ status: 422, reason: 'unknown_kind' });
    } finally {
      await t.db.sql`update notification_kinds set active = true where kind = 'dismissal_expiry'`;
    }
    expect(await rowCount()).toBe(before);
  });

  it('(2) a bad payload → 422 with details, no row (missing field, free-text key, bad studentId)', async () => {
    const before = await rowCount();
    const { daysAtLevel: _, ...withoutDays } = SAMPLE_PAYLOADS.training_support_review_suggested;
    for (const payload of [
      withoutDays,
      { ...SAMPLE_PAYLOADS.training_support_review_suggested, note: 'نص حر' },
      { ...SAMPLE_PAYLOADS.training_support_review_suggested, studentId: 42 },
      { ...SAMPLE_PAYLOADS.training_support_review_suggested, levelNumber: 9 },
    ]) {
      const error = await apiErrorOf(
        dispatch(deps, { recipientUserId: w.a.teacherId, kind: 'training_support_review_suggested', payload }),
      );
      expect(error).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', reason: 'invalid_payload' });
      expect(error.details?.length).toBeGreaterThan(0);
    }
    const mismatch = await apiErrorOf(
      dispatch(deps, {
        recipientUserId: w.a.teacherId,
        kind: 'training_no_progress',
        payload: SAMPLE_PAYLOADS.training_no_progress,
        sourceEntity: { sourceEntityType: 'training_progress_alert', sourceEntityId: 'another' },
      }),
    );
    expect(mismatch.reason).toBe('invalid_payload');
    expect(await rowCount()).toBe(before);
  });

  it('(3) a template token without a payload value is a catalog bug (throws)', () => {
    expect(() => renderTemplate('{{missing}}', {})).toThrow(/missing/);
  });

  it('(4) inactive, deleted or unknown recipient → skipped, no row; a student recipient → 422', async () => {
    const before = await rowCount();
    const teacher = await newTeacher();
    await t.db.sql`update users set disabled_at = now() where id = ${teacher.id}`;
    for (const recipientUserId of [teacher.id, 999_999]) {
      expect(
        await dispatch(deps, { recipientUserId, kind: 'q5_24h_ack', payload: SAMPLE_PAYLOADS.q5_24h_ack }),
      ).toEqual({ outcome: 'skipped', recipientUserId, skipped: 'recipient_inactive' });
    }
    const student = await apiErrorOf(
      dispatch(deps, { recipientUserId: w.a.studentId, kind: 'q5_24h_ack', payload: SAMPLE_PAYLOADS.q5_24h_ack }),
    );
    expect(student).toMatchObject({ status: 422, reason: 'student_recipient' });
    expect(await rowCount()).toBe(before);
  });

  it('(5) a rendered string the filter would rewrite aborts: blocked error, error log, no row', async () => {
    const before = await rowCount();
    logged.length = 0;
    const deficit = { ...SAMPLE_PAYLOADS.skill_alert_assigned, studentName: 'سارة ضعيفة' };
    await expect(
      dispatch(deps, { recipientUserId: w.a.teacherId, kind: 'skill_alert_assigned', payload: deficit }),
    ).rejects.toBeInstanceOf(LanguageSafetyBlockedError);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.object).toMatchObject({ kind: 'skill_alert_assigned', tier: 'general' });

    // A parent recipient gets the parent tier even for a teacher kind: an all-capital token refuses it.
    const latin = { ...SAMPLE_PAYLOADS.q5_24h_ack, studentName: 'EMERGING' };
    const parent = await dispatch(deps, { recipientUserId: w.a.parentId, kind: 'q5_24h_ack', payload: latin }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(parent).toBeInstanceOf(LanguageSafetyBlockedError);
    expect((parent as LanguageSafetyBlockedError).tier).toBe('parent');
    // The same text passes the general tier for a teacher (all-capital tokens are a parent-tier rule).
    await dispatch(deps, { recipientUserId: w.a.teacherId, kind: 'q5_24h_ack', payload: latin });
    expect(await rowCount()).toBe(before + 1);
  });

  it('dispatchToClass reaches every co-teacher; dispatchToStudent the teachers or the parents', async () => {
    const co = await newTeacher();
    const res = await client(t.app, w.superToken).post(`/api/classes/${w.a.classId}/teachers`, {
      teacherUserId: co.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const toClass = await dispatchToClass(deps, w.a.classId, {
      kind: 'cbm_alert_lifecycle',
      payload: SAMPLE_PAYLOADS.cbm_alert_lifecycle,
    });
    expect(toClass.outcome).toBe('fanned_out');
    if (toClass.outcome === 'fanned_out') {
      expect(toClass.results.map((r) => r.recipientUserId).sort()).toEqual([w.a.teacherId, co.id].sort());
    }
    const teachers = await dispatchToStudent(deps, w.a.studentId, {
      kind: 'training_support_review_suggested',
      payload: SAMPLE_PAYLOADS.training_support_review_suggested,
    });
    expect(teachers.outcome === 'fanned_out' && teachers.results.length).toBe(2);
    const parents = await dispatchToStudent(deps, w.a.studentId, {
      kind: 'parent_tsp_activation',
      payload: SAMPLE_PAYLOADS.parent_tsp_activation,
    });
    expect(parents.outcome === 'fanned_out' && parents.results.map((r) => r.recipientUserId)).toEqual([w.a.parentId]);
    expect(await dispatchToClass(deps, 'cls_AAAAAAAAAAAA', { kind: 'q5_24h_ack', payload: {} })).toEqual({
      outcome: 'no_recipients',
    });
  });

  it('the database refuses changes of write-once columns and deletes', async () => {
    const id = await send(w.a.teacherId);
    for (const change of [
      t.db.sql`update notifications set recipient_user_id = 1 where id = ${id}`,
      t.db.sql`update notifications set kind = 'q5_24h_ack' where id = ${id}`,
      t.db.sql`update notifications set payload = '{}'::jsonb where id = ${id}`,
      t.db.sql`update notifications set organization_id = 'x' where id = ${id}`,
      t.db.sql`update notifications set rendered_title_ar = 'x' where id = ${id}`,
      t.db.sql`update notifications set rendered_body_ar = 'x' where id = ${id}`,
      t.db.sql`update notifications set created_at = now() where id = ${id}`,
      t.db.sql`delete from notifications where id = ${id}`,
    ]) {
      await expect(change).rejects.toThrow(/write-once|never deleted/);
    }
    await t.db.sql`update notifications set delivery_state = 'read', read_at = now() where id = ${id}`;
  });
});

describe('inbox routes', () => {
  it('lists urgent first then newest, filters, pages with a cursor, and never lists dismissed', async () => {
    const me = await newTeacher();
    const api = client(t.app, me.token);
    const a = await send(me.id, 'skill_alert_assigned');
    const urgent = await send(me.id, 'student_alert_assigned');
    const b = await send(me.id, 'q5_24h_ack');
    const c = await send(me.id, 'cbm_alert_lifecycle');
    const gone = await send(me.id, 'dismissal_expiry');
    expect((await api.post(`/api/notifications/${gone}/dismiss`)).statusCode).toBe(200);
    await api.post(`/api/notifications/${b}/read`);

    const all = await api.get('/api/notifications');
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().items.map((n: { id: string }) => n.id)).toEqual([urgent, c, b, a]);

    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`/api/notifications?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.statusCode, page.body).toBe(200);
      ids.push(...page.json().items.map((n: { id: string }) => n.id));
      cursor = page.json().nextCursor;
    } while (cursor);
    expect(ids).toEqual([urgent, c, b, a]);

    const filtered = async (query: string) =>
      (await api.get(`/api/notifications?${query}`)).json().items.map((n: { id: string }) => n.id);
    expect(await filtered('state=read')).toEqual([b]);
    expect(await filtered('state=delivered_in_app')).toEqual([urgent, c, a]);
    expect(await filtered('severity=urgent')).toEqual([urgent]);
    expect(await filtered('kind=q5_24h_ack')).toEqual([b]);
    expect((await api.get('/api/notifications?state=dismissed')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await api.get('/api/notifications?limit=101')).statusCode).toBeGreaterThanOrEqual(400);
    expect((await api.get('/api/notifications?cursor=bogus')).statusCode).toBe(422);
    expect((await api.get('/api/notifications/unread-count')).json()).toEqual({ count: 3 });
  });

  it('read is idempotent and visible at once; dismiss of a read one is 409; dismiss repeats; not-owned 404', async () => {
    const me = await newTeacher();
    const api = client(t.app, me.token);
    const id = await send(me.id);
    const first = await api.post(`/api/notifications/${id}/read`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id, deliveryState: 'read' });
    const again = await api.post(`/api/notifications/${id}/read`);
    expect(again.statusCode).toBe(200);
    expect(again.json().readAt).toBe(first.json().readAt);
    expect((await api.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
    const events = await t.runtime.deps.store.readStream(`notification-${me.id}`);
    expect(events.filter((e) => e.type === 'NotificationRead')).toHaveLength(1);

    const conflictRes = await api.post(`/api/notifications/${id}/dismiss`);
    expect(conflictRes.statusCode).toBe(409);
    expect(conflictRes.json()).toMatchObject({ code: 'CONFLICT', reason: 'already_read' });

    const other = await send(me.id);
    expect((await api.post(`/api/notifications/${other}/dismiss`)).json().deliveryState).toBe('dismissed');
    expect((await api.post(`/api/notifications/${other}/dismiss`)).statusCode).toBe(200);
    const readDismissed = await api.post(`/api/notifications/${other}/read`);
    expect(readDismissed.statusCode).toBe(409);
    expect(readDismissed.json().reason).toBe('already_dismissed');

    const theirs = await send(w.a.teacherId);
    expect((await api.post(`/api/notifications/${theirs}/read`)).statusCode).toBe(404);
    expect((await api.post(`/api/notifications/${theirs}/dismiss`)).statusCode).toBe(404);
    expect((await api.post(`/api/notifications/${randomUUID()}/read`)).statusCode).toBe(404);
  });

  it('a student has no inbox: empty list, count 0, nothing to mark', async () => {
    const api = client(t.app, w.a.studentToken);
    expect((await api.get('/api/notifications')).json()).toEqual({ items: [], nextCursor: null });
    expect((await api.get('/api/notifications/unread-count')).json()).toEqual({ count: 0 });
    expect((await api.post('/api/notifications/mark-all-read')).json()).toEqual({ updated: 0 });
  });

  it('keeps the unread count exact under parallel reads and mark-all-read', async () => {
    const me = await newTeacher();
    const api = client(t.app, me.token);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await send(me.id, i % 2 ? 'q5_24h_ack' : 'skill_alert_assigned'));
    const requests = Array.from({ length: 20 }, (_, i) =>
      i % 5 === 0 ? api.post('/api/notifications/mark-all-read') : api.post(`/api/notifications/${ids[i]}/read`),
    );
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const individuallyRead = responses.filter((_, i) => i % 5 !== 0).length;
    const updated = responses
      .filter((_, i) => i % 5 === 0)
      .reduce((sum, r) => sum + (r.json() as { updated: number }).updated, 0);
    const [table] = await t.db.sql<{ unread: number; read: number }[]>`
      select count(*) filter (where delivery_state = 'delivered_in_app')::int as unread,
             count(*) filter (where delivery_state = 'read')::int as read
      from notifications where recipient_user_id = ${me.id}`;
    expect((await api.get('/api/notifications/unread-count')).json()).toEqual({ count: table!.unread });
    expect(table!.read).toBe(30);
    // Every row moved exactly once: by its own read or by one mark-all-read.
    expect(updated).toBeLessThanOrEqual(30);
    expect(updated).toBeGreaterThanOrEqual(30 - individuallyRead);
    const extra = await api.post('/api/notifications/mark-all-read');
    expect(extra.json()).toEqual({ updated: 0 });
  });
});
