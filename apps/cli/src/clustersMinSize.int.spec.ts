import { useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

const { t, w } = useTestWorld();

describe('qiraa clusters min-size', () => {
  it('sets 3 to 5, refuses other sizes (exit 2), and default removes the setting', async () => {
    const env = { DATABASE_URL: t.db.url };
    const setting = () => t.db.sql`select min_cluster_size from clu_school_settings where school_id = ${w.a.schoolId}`;
    const set = await runCli(['clusters', 'min-size', '--school', w.a.schoolId, '--size', '4'], env);
    expect(set.code, set.stderr).toBe(0);
    expect(await setting()).toEqual([{ min_cluster_size: 4 }]);
    for (const bad of ['2', '6', 'x']) {
      const refused = await runCliInProcess(['clusters', 'min-size', '--school', w.a.schoolId, '--size', bad], env);
      expect(refused.code).toBe(2);
    }
    expect((await runCliInProcess(['clusters', 'min-size', '--school', 'sch_nope', '--size', '3'], env)).code).toBe(1);
    const reset = await runCliInProcess(['clusters', 'min-size', '--school', w.a.schoolId, '--size', 'default'], env);
    expect(reset.code, reset.stderr).toBe(0);
    expect(await setting()).toEqual([]);
  }, 120_000);
});
