import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTables, EXCEPTIONS, ownerOf, tablesIn } from './checkTables';

/**
 * The table-ownership check against a small tree written to a temporary folder: clean, it finds nothing; each
 * planted violation is reported. Last, the real tree passes (with its listed exceptions, none stale).
 */
let roots: string[] = [];
afterEach(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  roots = [];
});

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tables-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const clean = {
  'migrations/0001_tables.sql':
    'create table users (id bigint);\ncreate table class_students (class_id text);\ncreate table if not exists ses_sessions (id text, content_hash text);\ncreate table content_items (id text);\n',
  'packages/identity/src/queries/classRoster.ts':
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a fixture file
    'export const classRoster = (sql, id) => sql`select student_id from class_students where class_id = ${id}`;\n',
  'packages/sessions/src/queries/sessionsOf.ts':
    "import { classRoster } from '@qiraa/identity';\nexport const s = (sql) => sql`select id from ses_sessions where status = 'open'`;\n",
  'packages/sessions/src/routes/sessionRoutes.ts':
    "import { s } from '../queries/sessionsOf';\nexport const routes = (app) => app.get('/x', () => s(app.sql));\n",
  // A spec may arrange any table.
  'packages/sessions/src/sessions.int.spec.ts': 'const f = (sql) => sql`insert into users (id) values (1)`;\n',
  // Words in plain strings and comments outside SQL are not SQL.
  'packages/gamification/src/copy.ts': "// users of classes\nexport const label = 'users and classes';\n",
};

const found = (root: string, exceptions = {}) =>
  checkTables(root, exceptions)
    .violations.map((v) => `${v.rule} ${v.file}: ${v.detail}`)
    .sort();

describe('checkTables', () => {
  it('knows the owners by name and by prefix', () => {
    expect(ownerOf('class_students')).toBe('identity');
    expect(ownerOf('content_items')).toBe('content');
    expect(ownerOf('ses_sessions')).toBe('sessions');
    expect(ownerOf('students')).toBeUndefined();
    const tables = new Set(['users', 'content_items']);
    // A column named like a prefix (content_hash) is no table: only what the migrations create counts.
    expect([
      ...tablesIn('select u.users, content_hash from users join content_items c on c.id = x.id', tables),
    ]).toEqual(['users', 'content_items']);
  });

  it('finds nothing in a tree that keeps the rules', () => {
    expect(found(repo(clean))).toEqual([]);
  });

  it("refuses a package naming another's table, in a tagged template, sql.unsafe or sql('name')", () => {
    const root = repo({
      ...clean,
      'packages/sessions/src/queries/roster.ts':
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a fixture file
        'export const r = (deps, id) => deps.sql`select s.student_id from ses_session_students s join class_students cs on cs.student_id = s.student_id where cs.class_id = ${id}`;\n',
      'packages/training/src/pool.ts':
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a fixture file
        "export const p = (tx) => tx.unsafe('select id from content_items');\nexport const q = (sql) => sql`select * from ${sql('users')}`;\n",
    });
    expect(found(root)).toEqual([
      "foreign-table packages/sessions/src/queries/roster.ts: class_students belongs to identity: call @qiraa/identity's read API instead",
      "foreign-table packages/training/src/pool.ts: content_items belongs to content: call @qiraa/content's read API instead",
      "foreign-table packages/training/src/pool.ts: users belongs to identity: call @qiraa/identity's read API instead",
    ]);
    // Listed as an exception, it passes; an exception that no longer matches is reported as stale.
    const exceptions = {
      'packages/sessions/src/queries/roster.ts': { tables: ['class_students'], why: 'test' },
      'packages/training/src/pool.ts': { tables: ['content_items', 'users', 'classes'], why: 'test' },
    };
    expect(found(root, exceptions)).toEqual([
      'foreign-table packages/training/src/pool.ts: stale exception: classes is no longer named here',
    ]);
  });

  it('refuses a migrated table nobody owns', () => {
    const root = repo({ ...clean, 'migrations/0002_more.sql': 'create table widgets (id int);\n' });
    expect(found(root)).toEqual(['unowned-table migrations: widgets: add it to OWNED_TABLES']);
  });

  it('refuses SQL in a route file (routes/ or *Routes.ts)', () => {
    const root = repo({
      ...clean,
      'packages/sessions/src/routes/sessionRoutes.ts':
        "export const routes = (app, deps) => app.get('/x', () => deps.sql<{ id: string }[]>`select id from ses_sessions`);\n",
      'packages/training/src/alerts/alertRoutes.ts': 'export const a = (tx) => tx`select 1`;\n',
    });
    expect(found(root)).toEqual([
      'sql-in-route packages/sessions/src/routes/sessionRoutes.ts: 1 SQL template(s) in a route file',
      'sql-in-route packages/training/src/alerts/alertRoutes.ts: 1 SQL template(s) in a route file',
    ]);
  });

  it('passes on the real tree, every listed exception still in use', () => {
    const report = checkTables(fileURLToPath(new URL('../..', import.meta.url)));
    expect(report.violations).toEqual([]);
    expect(Object.keys(EXCEPTIONS).length).toBeLessThan(80);
    // Parses every production file of every package: seconds on a loaded machine.
  }, 60_000);
});
