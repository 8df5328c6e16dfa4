import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../commands/dispatch';
import { DELIVERY_STATES, NOTIFICATION_KINDS, type NotificationKind, SEVERITIES } from '../schemas/notificationKinds';
import { SAMPLE_PAYLOADS } from '../schemas/samplePayloads';
import { PARENT_HIDDEN_ENVELOPE } from './payloadViews';

const { t, w } = useTestWorld();

/**
 * The rule for a parent's JSON (docs/notifications.md, "What a parent sees"): the row's own `id` (a uuid the
 * read and dismiss routes take), the contract enums `kind`, `severity`, `deliveryState`, the timestamps and
 * `nextCursor` (opaque) are the only places a digit, a Latin letter or an underscore may appear. Every other
 * value, at any depth, is Arabic text: no number, no boolean, no digit of any script, no Latin code; and the
 * payload's keys are display fields only (`studentName`, `…Ar`).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENVELOPE_EXCEPTIONS: Record<string, (value: unknown) => boolean> = {
  id: (v) => typeof v === 'string' && UUID.test(v),
  kind: (v) => (NOTIFICATION_KINDS as readonly unknown[]).includes(v),
  severity: (v) => (SEVERITIES as readonly unknown[]).includes(v),
  deliveryState: (v) => (DELIVERY_STATES as readonly unknown[]).includes(v),
  createdAt: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  readAt: (v) => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v))),
  dismissedAt: (v) => v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v))),
};
const NOT_FOR_PARENTS = /[0-9٠-٩۰-۹A-Za-z_%٪]/;
/** Payload field names are contract (Latin); a parent's payload holds only display names: `…Name`, `…Ar`. */
const DISPLAY_KEY = /^[a-z][A-Za-z]*(Name|Ar)$/;

/** Every place in a parent's notification list that breaks the rule, as `path: value`. */
function parentLeaks(body: { items: Record<string, unknown>[]; nextCursor: unknown }): string[] {
  const leaks: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value === null) return;
    if (typeof value === 'string') {
      if (NOT_FOR_PARENTS.test(value)) leaks.push(`${path}: ${value}`);
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (!DISPLAY_KEY.test(k)) leaks.push(`${path}.${k} (not a display field)`);
        walk(v, `${path}.${k}`);
      }
    } else {
      leaks.push(`${path}: ${String(value)} (${typeof value})`);
    }
  };
  if (body.nextCursor !== null && typeof body.nextCursor !== 'string') leaks.push(`nextCursor: ${body.nextCursor}`);
  body.items.forEach((item, i) => {
    for (const [key, value] of Object.entries(item)) {
      const exception = ENVELOPE_EXCEPTIONS[key];
      if (exception) {
        if (!exception(value)) leaks.push(`items[${i}].${key}: ${String(value)}`);
      } else if (key === 'payload' || key === 'renderedTitleAr' || key === 'renderedBodyAr') {
        walk(value, `items[${i}].${key}`);
      } else {
        leaks.push(`items[${i}].${key} (field a parent never gets)`);
      }
    }
  });
  return leaks;
}

/** The kind's sample payload about the world's real child (org A's student, linked to org A's parent). */
const aboutTheChild = (kind: NotificationKind): Record<string, unknown> => {
  const payload = { ...(SAMPLE_PAYLOADS[kind] as Record<string, unknown>) };
  if ('studentId' in payload) payload['studentId'] = String(w.a.studentId);
  if ('classId' in payload) payload['classId'] = w.a.classId;
  return payload;
};

describe('what a parent sees in GET /api/notifications', () => {
  it('every kind delivered to a parent: no digit, code, id or score anywhere but the row id, enums and times', async () => {
    for (const kind of NOTIFICATION_KINDS) {
      const result = await dispatch(t.runtime.deps, {
        recipientUserId: w.a.parentId,
        kind,
        payload: aboutTheChild(kind),
      });
      expect(result.outcome, kind).toBe('dispatched');
    }
    const res = await client(t.app, w.a.parentToken).get('/api/notifications?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { items: Record<string, unknown>[]; nextCursor: unknown };
    expect(body.items.map((n) => n.kind).sort()).toEqual([...NOTIFICATION_KINDS].sort());
    expect(parentLeaks(body)).toEqual([]);
    for (const item of body.items) {
      for (const hidden of PARENT_HIDDEN_ENVELOPE) expect(item).not.toHaveProperty(hidden);
    }
    // The view keeps what the parent needs: the child's name, and the skill's where the kind names one.
    const swap = body.items.find((n) => n.kind === 'benchmark_profile_swap')!;
    expect(swap.payload).toEqual({ studentName: 'سارة' });
    const skill = body.items.find((n) => n.kind === 'skill_alert_assigned')!;
    expect(skill.payload).toEqual({ studentName: 'سارة', skillLabelAr: 'أصوات الحروف' });
  });

  it('the read and dismiss answers follow the same view', async () => {
    const api = client(t.app, w.a.parentToken);
    const sent = await Promise.all(
      (['benchmark_profile_swap', 'training_no_progress'] as const).map((kind) =>
        dispatch(t.runtime.deps, { recipientUserId: w.a.parentId, kind, payload: aboutTheChild(kind) }),
      ),
    );
    const [read, dismissed] = sent.map((r) => (r.outcome === 'dispatched' ? r.notificationId : ''));
    const readRes = await api.post(`/api/notifications/${read}/read`);
    const dismissRes = await api.post(`/api/notifications/${dismissed}/dismiss`);
    for (const res of [readRes, dismissRes]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(parentLeaks({ items: [res.json()], nextCursor: null })).toEqual([]);
    }
  });

  it('staff keep the full payload and envelope (the view is per persona)', async () => {
    const result = await dispatch(t.runtime.deps, {
      recipientUserId: w.a.teacherId,
      kind: 'benchmark_profile_swap',
      payload: aboutTheChild('benchmark_profile_swap'),
    });
    expect(result.outcome).toBe('dispatched');
    const res = await client(t.app, w.a.teacherToken).get('/api/notifications?kind=benchmark_profile_swap');
    const [item] = res.json().items;
    expect(item).toMatchObject({
      recipientUserId: w.a.teacherId,
      organizationId: w.a.id,
      sourceEntity: null,
      payload: { ...aboutTheChild('benchmark_profile_swap') },
    });
    expect(parentLeaks(res.json()).length).toBeGreaterThan(0);
  });
});
