import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './testApp';
import { buildWorld, type World } from './world';

type TestAppOptions = Parameters<typeof createTestApp>[0];

/** The app hooks many specs repeated, in one call; `t` is empty until its beforeAll has filled it in place. */
export function useTestApp(options?: TestAppOptions): TestApp {
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(options));
  }, 120_000);
  afterAll(() => t.close());
  return t;
}

/** useTestApp plus buildWorld, the setup most route specs repeated; `w` is filled in place like `t`. */
export function useTestWorld(options?: TestAppOptions): { t: TestApp; w: World } {
  const t = useTestApp(options);
  const w = {} as World;
  beforeAll(async () => {
    Object.assign(w, await buildWorld(t));
  }, 120_000);
  return { t, w };
}
