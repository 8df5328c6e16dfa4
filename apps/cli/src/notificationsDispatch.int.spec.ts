import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { SAMPLE_PAYLOADS } from '@qiraa/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';

let db: TestDatabase;
let dir: string;
let teacherId: number;
let studentId: number;
let payloadFile: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), 'qiraa-dispatch-'));
  await db.sql`insert into organizations (id, name, slug, country, default_locale) values ('org_dispatchAAAA', 'م', 'dispatch', 'JO', 'ar-JO')`;
  const [teacher] = await db.sql<{ id: bigint }[]>`
    insert into users (email, password_hash, full_name_ar, primary_persona, organization_id)
    values ('t@dispatch.test', 'not-a-login', 'معلمة', 'TEACHER', 'org_dispatchAAAA') returning id`;
  const [student] = await db.sql<{ id: bigint }[]>`
    insert into users (full_name_ar, primary_persona, organization_id) values ('طالب', 'STUDENT', 'org_dispatchAAAA') returning id`;
  teacherId = Number(teacher!.id);
  studentId = Number(student!.id);
  payloadFile = path.join(dir, 'payload.json');
  await writeFile(payloadFile, JSON.stringify(SAMPLE_PAYLOADS.skill_alert_assigned));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db.drop();
});

const run = (args: string[]) => runCli(['notifications', 'dispatch', ...args], { DATABASE_URL: db.url });

describe('qiraa notifications dispatch', () => {
  it('raises a notification through the six dispatch steps and prints the outcome', async () => {
    const res = await run([
      '--kind',
      'skill_alert_assigned',
      '--recipient',
      String(teacherId),
      '--payload',
      payloadFile,
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ outcome: 'dispatched', recipientUserId: teacherId });
    const rows = await db.sql`select kind, delivery_state from notifications where recipient_user_id = ${teacherId}`;
    expect(rows).toEqual([{ kind: 'skill_alert_assigned', delivery_state: 'delivered_in_app' }]);
  });

  it('refuses an unknown kind and a student recipient with exit 1, writing nothing', async () => {
    const unknown = await run(['--kind', 'no_such_kind', '--recipient', String(teacherId), '--payload', payloadFile]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown_kind/);
    const student = await run([
      '--kind',
      'skill_alert_assigned',
      '--recipient',
      String(studentId),
      '--payload',
      payloadFile,
    ]);
    expect(student.code).toBe(1);
    expect(student.stderr).toMatch(/student_recipient/);
    const [n] = await db.sql`select count(*)::int as n from notifications`;
    expect(n).toEqual({ n: 1 });
  });

  it('refuses a recipient id that no user has with exit 1 and a message, writing nothing', async () => {
    const res = await run(['--kind', 'skill_alert_assigned', '--recipient', '987654321', '--payload', payloadFile]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('qiraa: --recipient 987654321: no user has that id (nothing dispatched)\n');
    expect(await db.sql`select 1 from notifications where recipient_user_id = 987654321`).toEqual([]);
  });

  it('answers a malformed recipient with exit 2', async () => {
    expect((await run(['--kind', 'q5_24h_ack', '--recipient', 'abc', '--payload', payloadFile])).code).toBe(2);
  });
});
