import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { testKit } from '../testing/testKit';

/** The same app with NODE_ENV=production: the direct classId form of student login is refused. */
const { t, w } = useTestWorld({ env: { NODE_ENV: 'production' } });
const kit = testKit(t);

describe('POST /api/auth/student/quickcode in production', () => {
  it('refuses the direct classId form with the answer of a bad code', async () => {
    const direct = await kit.quickcode({ classId: w.a.classId, quickCode: w.a.studentQuickCode }, '10.1.0.1');
    const bad = await kit.quickcode({ classCode: 'ZZZZ4444', quickCode: w.a.studentQuickCode }, '10.1.0.2');
    expect(direct.statusCode).toBe(401);
    expect(direct.json()).toEqual(bad.json());
    expect(direct.json().code).toBe('QUICKCODE_INVALID_OR_EXPIRED');
  });

  it('still signs a student in with the class code', async () => {
    const res = await kit.quickcode({ classCode: w.a.classCode, quickCode: w.a.studentQuickCode }, '10.1.0.3');
    expect(res.statusCode, res.body).toBe(200);
  });
});
