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
export const EXCEPTIONS: Record<string, { tables: readonly string[]; why: string }> = {
  'packages/assessment/src/oral/attemptPlace.ts': {
    tables: ['class_students', 'class_teachers', 'classes'],
    why: "the reading's class in one query (roster join teachers join classes, newest year first); identity read to come: a student's classes held by a teacher",
  },
  'packages/assessment/src/page/taqyeemPage.ts': {
    tables: ['class_students', 'users'],
    why: 'roster with first names sorted by full name in SQL; identity read to come: classRosterNames (same ordering)',
  },
  'packages/assessment/src/sittings/answerFacts.ts': {
    tables: ['content_items'],
    why: 'one round trip per answer on the sitting write path (item facts and next item beside asm_sittings); the write-path helper owns this file; content read to come',
  },
  'packages/assessment/src/sittings/planSitting.ts': {
    tables: ['content_items'],
    why: "the forms' items by measure with a caller-built column list; content read to come: formItems(formIds, measures)",
  },
  'packages/assessment/src/sittings/sittingView.ts': {
    tables: ['content_items', 'content_passages'],
    why: 'the item and passage beside the sitting row; content read to come',
  },
  'packages/assessment/src/sittings/studentClass.ts': {
    tables: ['class_students', 'classes'],
    why: "a student's newest active class (by enrolment); identity read to come: studentPlacement",
  },
  'packages/assessment/src/windows/windowState.ts': {
    tables: ['organizations'],
    why: "the organization's time zone as a sub-select of one query over asm_window_* (one round trip); organizationTimeZone would add a second",
  },
  'packages/assessment/src/wordListReads/teacherWordLists.ts': {
    tables: ['class_students', 'class_teachers', 'classes'],
    why: "a student's class ordered by whether the caller teaches it; identity read to come: studentPlacement with a preferred teacher",
  },
  'packages/auditing/src/queries/eventById.ts': {
    tables: ['es_events', 'es_streams'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/queries/explain.ts': {
    tables: ['dec_skill_status', 'es_events', 'gam_badge_awards', 'gam_badge_rescinds', 'gam_xp_ledger', 'trn_levels'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/queries/logEvents.ts': {
    tables: ['es_events', 'es_streams'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/queries/streamEvents.ts': {
    tables: ['es_events', 'es_streams'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/queries/studentStreams.ts': {
    tables: ['es_events', 'es_stream_students', 'es_streams'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/streamOrganization.ts': {
    tables: ['es_stream_students', 'users'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/verify/checkpoints.ts': {
    tables: ['es_verify_checkpoints'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/auditing/src/verify/verifyLog.ts': {
    tables: ['es_events', 'es_streams', 'es_verify_checkpoints'],
    why: "auditing explains and verifies the whole ledger: reading the event store and other contexts' rows is its job; a read port per context is future work",
  },
  'packages/clusters/src/queries/previewOf.ts': {
    tables: ['class_students'],
    why: "class_id in (select \u2026 from class_students) inside the clu_* query; identity read to come: a student's active class ids",
  },
  'packages/decisions/src/projections/skillStatusReactor.ts': {
    tables: ['asm_attempts'],
    why: "asm_attempts (assessment's table) read by the decisions reactor; an assessment read to come",
  },
  'packages/gamification/src/commands/recordMasteryEvents.ts': {
    tables: ['organizations', 'users'],
    why: "students' organization, time zone and holidays in one query on the mastery write path (the write-path helper's file); identity read to come",
  },
  'packages/gamification/src/queries/leaderboardClass.ts': {
    tables: ['class_students'],
    why: "the class's active roster as a sub-query of the board's one statement (rosterLeaderboard); ids first adds a round trip and a large array parameter; an identity-owned SQL view needs a migration",
  },
  'packages/gamification/src/queries/leaderboardSchool.ts': {
    tables: ['class_students', 'classes'],
    why: "as leaderboardClass: the school's active students as a sub-query of the board's statement",
  },
  'packages/gamification/src/queries/leaderboardTeacher.ts': {
    tables: ['class_students', 'class_teachers', 'classes', 'organizations'],
    why: "the teacher board in one statement (taught classes, their rosters, the organization's today); performance-sensitive; an identity-owned view needs a migration",
  },
  'packages/gamification/src/queries/profile.ts': {
    tables: ['users'],
    why: "holidays of the student's organization inside the profile's one query (users join school_holidays)",
  },
  'packages/gamification/src/queries/rosterLeaderboard.ts': {
    tables: ['organizations'],
    why: "the organization's today (time zone) as a materialized CTE of the board's statement",
  },
  'packages/gamification/src/replay/readStudentStreams.ts': {
    tables: ['es_events'],
    why: "reads the event store's tables (es_*) directly; the loading strategies of the handleCommand/decider platform package (parallel work) replace these",
  },
  'packages/parent-portal/src/queries/childrenOf.ts': {
    tables: ['class_students', 'classes', 'parent_students', 'schools', 'users'],
    why: "a parent's children with newest class grade and school name in one query; identity read to come: parentLinks with placement",
  },
  'packages/sessions/src/practice/sessionQueue.ts': {
    tables: ['class_students', 'content_items'],
    why: 'the session queue joins ses_* with class_students and content_items; not done for lack of time',
  },
  'packages/sessions/src/sessions/itemsForSlots.ts': {
    tables: ['content_items'],
    why: 'training items for slots (content_items by sub-skill, grade, organization); content read to come',
  },
  'packages/sessions/src/sessions/sessionQueries.ts': {
    tables: ['users'],
    why: 'session students with names and gender, ordered by name in SQL; identity read to come',
  },
  'packages/training/src/alerts/acknowledgeAlert.ts': {
    tables: ['class_students', 'class_teachers'],
    why: 'teacher-or-group-owner check as one union query with trn_support_groups',
  },
  'packages/training/src/alerts/alertQueries.ts': {
    tables: ['class_students', 'users'],
    why: 'alerts of the class roster joined to users for names, keyset-paged in SQL (one statement)',
  },
  'packages/training/src/commands/practiceQueue.ts': {
    tables: ['content_items'],
    why: "the practice answer's one read (submitReads: item, queued session, learner, send, open day in one statement, issue 28's round trips); a content read would add a round trip to every answer",
  },
  'packages/training/src/queries/learner.ts': {
    tables: ['class_students', 'classes', 'organizations', 'users'],
    why: "the learner's organization, time zone, grade and year in one query; identity read to come: studentPlacement",
  },
  'packages/training/src/queries/practiceItem.ts': {
    tables: ['content_items'],
    why: 'a content item with a caller-built column list; content read to come',
  },
  'packages/training/src/queries/trainingGroups.ts': {
    tables: ['content_skills', 'content_training_levels'],
    why: 'trn_answers joined to skill labels and level names, ordered by skill ordinal, grouped in SQL',
  },
  'packages/training/src/queries/trainingLevelsOf.ts': {
    tables: ['content_skills', 'content_training_levels'],
    why: 'trn_levels joined to skill labels and level names in one query',
  },
  'packages/training/src/queries/trainingPool.ts': {
    tables: ['content_items', 'content_measures', 'content_scaffold_prompts', 'content_skills', 'content_sub_skills'],
    why: 'practice item selection over content_* with trn_answers counts in one statement (hot path); a content-owned selection function is the next step',
  },
  'packages/training/src/schedules/endOfSchoolDay.ts': {
    tables: ['organizations', 'school_holidays'],
    why: "trn_days joined to organizations (time zone) and school_holidays in the schedule's one query",
  },
  'packages/training/src/schedules/supportReview.ts': {
    tables: ['organizations'],
    why: "organizations' time zone joined in the review's one query over trn_*",
  },
  'packages/training/src/sends/sendProgress.ts': {
    tables: ['class_teachers', 'classes', 'users'],
    why: 'send rows joined to classes (school) and users (names); teachesClass covers its third query; not done for lack of time',
  },
  'packages/training/src/sends/sendScope.ts': {
    tables: ['class_students', 'class_teachers', 'classes', 'users'],
    why: "the send's students (class roster ordered as text, or still-active group members) in one statement; classRecord/teachesClass cover the rest; not done for lack of time",
  },
  'packages/training/src/sends/sendTraining.ts': {
    tables: ['content_items', 'content_sub_skills'],
    why: 'whether any operational item matches (content_items join content_sub_skills); content read to come',
  },
};

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
