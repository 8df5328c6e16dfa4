import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Node } from 'typescript';
import { isTestFile } from './checkBoundaries';
import ts from './typescript';

/**
 * Who owns which table (docs/architecture.md, "Who owns which table"), and the two rules that follow from it,
 * checked over the SQL of every package's production code:
 *
 * - `foreign-table`: a file of package X names, in its SQL, a table another package owns; it calls that
 *   package's read API (its `index.ts`) instead;
 * - `sql-in-route`: a route file (`routes/**` or `*Routes.ts`) holds a tagged SQL template; routes speak HTTP
 *   and call the context's queries and commands;
 * - `unowned-table`: a migration creates a table the ownership list below does not place.
 *
 * The tables are the ones `migrations/*.sql` create (so a column named like a prefix, `content_hash`, is none).
 *
 * "Its SQL" is the literal text of every tagged template (`sql\`…\``, `tx\`…\``), of the argument of
 * `sql.unsafe(…)` and of a `sql('name')` identifier. A table name counts when it stands as a word there
 * (`users`, `u.users` no: `users.id` yes); comments inside the SQL count too, which keeps the check simple and
 * errs on the side of noise. Test code (isTestFile) is exempt: a spec may arrange any table.
 */
export type TableRule = 'foreign-table' | 'sql-in-route' | 'unowned-table';

export interface TableViolation {
  rule: TableRule;
  file: string;
  detail: string;
}

/** Table name → owning package directory name (packages/<dir>). Exact names first, then prefixes. */
export const OWNED_TABLES: Record<string, readonly string[]> = {
  identity: [
    'organizations',
    'schools',
    'users',
    'classes',
    'class_login_codes',
    'class_teachers',
    'class_students',
    'parent_students',
    'refresh_families',
    'refresh_tokens',
    'auth_attempts',
    'student_context_flag_codes',
    'student_context_flags',
    'roster_imports',
    'rate_windows',
  ],
  gamification: ['school_holidays'],
  notifications: ['notification_kinds', 'notifications'],
  audit: ['audit_log'],
  projections: ['projection_checkpoints', 'reaction_checkpoints', 'reaction_parked'],
  runtime: ['schedule_runs'],
  // apps/cli's demo seed (`qiraa seed`); no package may touch them.
  cli: ['demo_seed_runs', 'demo_seed_baseline'],
};

export const OWNED_PREFIXES: Record<string, string> = {
  auth_: 'identity',
  content_: 'content',
  gam_: 'gamification',
  asm_: 'assessment',
  dec_: 'decisions',
  trn_: 'training',
  ses_: 'sessions',
  clu_: 'clusters',
  language_safety_: 'language-safety',
  es_: 'eventstore',
};

/**
 * Known exceptions, each with its reason: `file` (relative to the root) → table names it may name. Kept short and
 * explicit; an entry that no longer matches anything is itself reported (`stale-exception`), so the list shrinks
 * with the code.
 */
export const EXCEPTIONS: Record<string, { tables: readonly string[]; why: string }> = {};

/** The tables the migrations create (`create table [if not exists] name`). */
export function migratedTables(root: string): Set<string> {
  const dir = join(root, 'migrations');
  const tables = new Set<string>();
  if (!existsSync(dir)) return tables;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const m of text.matchAll(
      /create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?(?:public\.)?([a-z_][a-z0-9_]*)/gi,
    )) {
      tables.add(m[1]!.toLowerCase());
    }
  }
  return tables;
}

export function ownerOf(table: string): string | undefined {
  for (const [owner, tables] of Object.entries(OWNED_TABLES)) if (tables.includes(table)) return owner;
  for (const [prefix, owner] of Object.entries(OWNED_PREFIXES)) if (table.startsWith(prefix)) return owner;
  return undefined;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) tsFiles(path, out);
    else if (path.endsWith('.ts')) out.push(path);
  }
  return out;
}

export function isRouteFile(pathInPackage: string): boolean {
  const p = pathInPackage.split(sep).join('/');
  return /(^|\/)routes\//.test(p) || /Routes\.ts$/.test(p);
}

/** The SQL text of a file: tagged templates' literal parts, `x.unsafe('…')` and `x('name')` string arguments. */
export function sqlTexts(source: string): { tagged: number; texts: string[] } {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, false);
  const texts: string[] = [];
  let tagged = 0;
  const literal = (node: Node): string | undefined =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
  const visit = (node: Node) => {
    if (ts.isTaggedTemplateExpression(node)) {
      const tag = node.tag.getText(file);
      if (/(^|\.)(sql|tx|trx)$/.test(tag)) tagged++;
      const t = node.template;
      if (ts.isNoSubstitutionTemplateLiteral(t)) texts.push(t.text);
      else texts.push([t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join(' ? '));
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const callee = node.expression.getText(file);
      const first = literal(node.arguments[0]!);
      if (first !== undefined && /(^|\.)(sql|tx|trx|unsafe)$/.test(callee)) texts.push(first);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { tagged, texts };
}

const WORD = /[a-z_][a-z0-9_]*/g;

/** Table names standing as words in the SQL text (not after a dot: `x.users` is a column or alias). */
export function tablesIn(text: string, tables: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    const before = text[m.index! - 1];
    if (before === '.' || before === '$') continue;
    if (tables.has(m[0]) && ownerOf(m[0]) !== undefined) found.add(m[0]);
  }
  return found;
}

export interface TableReport {
  violations: TableViolation[];
  /** owner → foreign package → files naming owner's tables. */
  foreign: Map<string, Map<string, string[]>>;
  routeFilesWithSql: string[];
}

export function checkTables(
  root: string,
  exceptions: Record<string, { tables: readonly string[]; why: string }> = EXCEPTIONS,
): TableReport {
  const violations: TableViolation[] = [];
  const foreign = new Map<string, Map<string, string[]>>();
  const routeFilesWithSql: string[] = [];
  const used = new Set<string>();
  const known = migratedTables(root);
  for (const table of [...known].sort()) {
    if (ownerOf(table) === undefined) {
      violations.push({ rule: 'unowned-table', file: 'migrations', detail: `${table}: add it to OWNED_TABLES` });
    }
  }
  const packagesDir = join(root, 'packages');
  const dirs = existsSync(packagesDir) ? readdirSync(packagesDir).sort() : [];
  for (const dir of dirs) {
    const base = join(packagesDir, dir);
    for (const file of tsFiles(join(base, 'src')).sort()) {
      const inPackage = relative(base, file);
      if (isTestFile(inPackage)) continue;
      const where = relative(root, file).split(sep).join('/');
      const { tagged, texts } = sqlTexts(readFileSync(file, 'utf8'));
      if (isRouteFile(inPackage) && tagged > 0) {
        routeFilesWithSql.push(where);
        violations.push({ rule: 'sql-in-route', file: where, detail: `${tagged} SQL template(s) in a route file` });
      }
      const tables = new Set<string>();
      for (const text of texts) for (const t of tablesIn(text, known)) tables.add(t);
      const allowed = exceptions[where]?.tables ?? [];
      for (const table of [...tables].sort()) {
        const owner = ownerOf(table)!;
        if (owner === dir) continue;
        const byCaller = foreign.get(owner) ?? new Map<string, string[]>();
        foreign.set(owner, byCaller);
        const files = byCaller.get(dir) ?? [];
        if (!files.includes(where)) files.push(where);
        byCaller.set(dir, files);
        if (allowed.includes(table)) {
          used.add(`${where}:${table}`);
          continue;
        }
        violations.push({
          rule: 'foreign-table',
          file: where,
          detail: `${table} belongs to ${owner}: call @qiraa/${owner}'s read API instead`,
        });
      }
    }
  }
  for (const [file, { tables }] of Object.entries(exceptions)) {
    for (const table of tables) {
      if (!used.has(`${file}:${table}`)) {
        violations.push({ rule: 'foreign-table', file, detail: `stale exception: ${table} is no longer named here` });
      }
    }
  }
  return { violations, foreign, routeFilesWithSql };
}
