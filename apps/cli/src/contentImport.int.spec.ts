import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildWorld, client, createTestApp } from '@qiraa/app/testing';
import { type ImportBodyInput, importContent } from '@qiraa/content';
import { createTestDatabase, type TestDatabase } from '@qiraa/db/testing';
import { reloadLanguageSafety } from '@qiraa/language-safety';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PACK_DIR } from './commands/contentImport';
import { type CliRun, runCli } from './testing/runCli';
import { runCliInProcess } from './testing/runCliInProcess';

let db: TestDatabase;
let env: NodeJS.ProcessEnv;
let dir: string;
let first: CliRun;

beforeAll(async () => {
  db = await createTestDatabase(); // empty and migrated
  env = { DATABASE_URL: db.url };
  dir = await mkdtemp(path.join(tmpdir(), 'qiraa-pack-'));
  // The one real process of the file; the later runs use the same program in this process (runCliInProcess.ts).
  first = await runCli(['content', 'import', DEMO_PACK_DIR], env);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await db.drop();
});

const CONTENT_TABLES = [
  'content_items',
  'content_passages',
  'content_word_lists',
  'content_scaffold_prompts',
  'content_screening_forms',
  'content_diagnostic_blueprint_cells',
] as const;

async function contentCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of CONTENT_TABLES) {
    const [row] = await db.sql<{ n: number }[]>`select count(*)::int as n from ${db.sql(table)}`;
    counts[table] = row!.n;
  }
  return counts;
}

const SOURCE = { origin: 'authored_in_house', reference: 'qiraa test pack' };
const SIGNOFF = { agreementCode: 'qiraa-content-2026', signedByName: 'فريق قراءة', signedAt: '2026-11-21T00:00:00Z' };
const option = (key: string, text: string) => ({ key, text_ar: text });
const trainingItem = (externalId: string, over: Record<string, unknown> = {}) => ({
  external_id: externalId,
  content_role: 'target_training',
  grade: 1,
  sub_skill_id: 'ls_short_vowels',
  item_pattern: 'vowel_choice',
  training_level: 1,
  stem_ar: 'مَا الْحَرَكَةُ عَلَى هَذَا الْحَرْفِ: بَ',
  options: [option('a', 'فَتْحَةٌ'), option('b', 'ضَمَّةٌ')],
  correct_option_key: 'a',
  ...over,
});

/** Writes a pack (manifest plus one file per body) into its own folder under the spec's temp dir. */
async function writePack(name: string, bodies: Record<string, unknown>, blueprint: unknown[] = []): Promise<string> {
  const packDir = path.join(dir, name);
  await rm(packDir, { recursive: true, force: true });
  await mkdir(packDir, { recursive: true });
  const files = Object.keys(bodies);
  await writeFile(
    path.join(packDir, 'manifest.json'),
    JSON.stringify({ pack: name, version: 'test', files, blueprint }),
  );
  for (const file of files) await writeFile(path.join(packDir, file), JSON.stringify(bodies[file]));
  return packDir;
}

describe('qiraa content import (the demo pack)', () => {
  it('imports the whole pack with zero rejected rows and exits 0', async () => {
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/accepted \d+, unchanged 0, rejected 0; blueprint cells set 4, unchanged 0/);
    const [rejected] = await db.sql`select count(*)::int as n from content_import_rows where reject_reason is not null`;
    expect(rejected).toEqual({ n: 0 });
    const batches = await db.sql<{ status: string; created_by: string | null; n: number }[]>`
      select status, created_by, count(*)::int as n from content_import_batches group by 1, 2`;
    expect(batches).toEqual([{ status: 'approved', created_by: null, n: 12 }]);
    const [notLive] = await db.sql`
      select (select count(*) from content_items where status <> 'operational')
           + (select count(*) from content_passages where status <> 'operational')
           + (select count(*) from content_scaffold_prompts where status <> 'operational')
           + (select count(*) from content_word_lists where status <> 'operational')
           + (select count(*) from content_screening_forms where status <> 'operational') as n`;
    expect(Number(notLive!.n)).toBe(0);
    const [scoped] = await db.sql`
      select (select count(*) from content_items where organization_id is not null)
           + (select count(*) from content_word_lists where scope <> 'global') as n`;
    expect(Number(scoped!.n)).toBe(0);
  });

  it('holds one operational BOY screening form per grade 1-4 with the catalog’s measures, counts and positions', async () => {
    const rows = await db.sql<{ grade: number; measure: string; positions: number[] }[]>`
      select f.grade, i.measure_code as measure, array_agg(i.form_position order by i.form_position) as positions
      from content_screening_forms f join content_items i on i.screening_form_id = f.id
      where f.status = 'operational' and f.window_code = 'BOY' and f.organization_id is null
        and i.status = 'operational' and i.content_role = 'screening'
      group by f.grade, i.measure_code order by f.grade, i.measure_code`;
    const three = [1, 2, 3];
    expect(rows).toEqual([
      { grade: 1, measure: 'text1_comprehension', positions: three },
      { grade: 1, measure: 'word_recognition', positions: [1, 2, 3, 4] },
      { grade: 2, measure: 'spelling_choice', positions: three },
      { grade: 2, measure: 'text1_comprehension', positions: three },
      { grade: 2, measure: 'word_recognition', positions: [1, 2, 3, 4] },
      { grade: 3, measure: 'spelling_choice', positions: three },
      { grade: 3, measure: 'text1_comprehension', positions: three },
      { grade: 3, measure: 'text2_comprehension', positions: three },
      { grade: 4, measure: 'spelling_choice', positions: three },
      { grade: 4, measure: 'text1_comprehension', positions: three },
      { grade: 4, measure: 'text2_comprehension', positions: three },
    ]);
    const [forms] = await db.sql`select count(*)::int as n from content_screening_forms`;
    expect(forms).toEqual({ n: 4 });
  });

  it('links every text question to an operational passage of its grade, one passage per text measure', async () => {
    const rows = await db.sql<{ grade: number; measure: string; passages: number; words: number; unlinked: number }[]>`
      select i.grade, i.measure_code as measure, count(distinct p.id)::int as passages,
             min(p.word_count)::int as words, count(*) filter (where p.id is null)::int as unlinked
      from content_items i left join content_passages p on p.id = i.passage_id and p.status = 'operational'
                                                        and p.grade = i.grade
      where i.measure_code in ('text1_comprehension', 'text2_comprehension')
      group by 1, 2 order by 1, 2`;
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row.unlinked, `${row.grade} ${row.measure}`).toBe(0);
      expect(row.passages).toBe(1);
      expect(row.words).toBeGreaterThanOrEqual(25);
      expect(row.words).toBeLessThanOrEqual(120);
    }
    const [notText] = await db.sql`
      select count(*)::int as n from content_items
      where passage_id is not null and measure_code not in ('text1_comprehension', 'text2_comprehension')`;
    expect(notText).toEqual({ n: 0 });
  });

  it('holds 8 operational BOY word lists, one per grade and skill, sized within their cell, vowelled in grades 1-2', async () => {
    const lists = await db.sql<
      { grade: number; skill: string; n: number; min: number; max: number; bare: number; timed: boolean }[]
    >`
      select l.grade, l.skill_id as skill, cardinality(l.words) as n, c.min_words as min, c.max_words as max,
             (select count(*)::int from unnest(l.words) w where w !~ '[\u064B-\u0652]') as bare,
             l.timed and l.duration_seconds = 60 and l.words_per_row = 5 as timed
      from content_word_lists l join content_word_list_cells c on c.grade = l.grade and c.skill_id = l.skill_id
      where l.status = 'operational' and l.scope = 'global' and l.window_code = 'BOY'
      order by l.grade, l.skill_id`;
    expect(lists.map((l) => `${l.grade} ${l.skill}`)).toEqual(
      [1, 2, 3, 4].flatMap((g) => [`${g} familiar_word_reading`, `${g} pseudoword_decoding`]),
    );
    for (const list of lists) {
      expect(list.n, `${list.grade} ${list.skill}`).toBeGreaterThanOrEqual(list.min);
      expect(list.n, `${list.grade} ${list.skill}`).toBeLessThanOrEqual(list.max);
      expect(list.timed).toBe(true);
      if (list.grade <= 2) expect(list.bare, `${list.grade} ${list.skill}`).toBe(0);
    }
  });

  it('holds training items at levels 1-4 (3 or more each) for at least 4 sub-skills, within their grade range', async () => {
    const rows = await db.sql<{ sub_skill_id: string; levels: number[]; fewest: number }[]>`
      select sub_skill_id, array_agg(distinct training_level order by training_level) as levels,
             min(n)::int as fewest
      from (select sub_skill_id, training_level, count(*) as n from content_items
            where content_role = 'target_training' and status = 'operational' group by 1, 2) per_level
      group by sub_skill_id`;
    const full = rows.filter((r) => r.levels.join() === '1,2,3,4' && r.fewest >= 3);
    expect(full.length).toBeGreaterThanOrEqual(4);
    const [outOfRange] = await db.sql`
      select count(*)::int as n from content_items i join content_sub_skills s on s.id = i.sub_skill_id
      where i.grade not between s.grade_min and s.grade_max`;
    expect(outOfRange).toEqual({ n: 0 });
    const [purpose] = await db.sql`
      select count(*)::int as n from content_items where content_role = 'target_training' and content_purpose <> 'training'`;
    expect(purpose).toEqual({ n: 0 });
  });

  it('holds at least 8 bridge items, each naming a catalog skill to bridge to', async () => {
    const [bridge] = await db.sql<{ n: number; targets: number }[]>`
      select count(*)::int as n, count(distinct bridge_target_skill_id)::int as targets from content_items i
      join content_skills s on s.id = i.bridge_target_skill_id
      where i.content_role = 'bridge_practice' and i.status = 'operational' and i.content_purpose = 'bridge'`;
    expect(bridge!.n).toBeGreaterThanOrEqual(8);
    expect(bridge!.targets).toBeGreaterThan(1);
  });

  it('holds scaffold prompts at tiers 1, 2 and 3 for at least 5 sub-skills', async () => {
    const [prompts] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from (
        select sub_skill_id from content_scaffold_prompts where status = 'operational'
        group by sub_skill_id having array_agg(distinct tier order by tier) = array[1, 2, 3]::smallint[]) full_tiers`;
    expect(prompts!.n).toBeGreaterThanOrEqual(5);
  });

  it('sets the 4 global BOY blueprint cells with the form measures and the oral ones, never root_identification', async () => {
    const cells = await db.sql`
      select grade, window_code, kind, measures, revision from content_diagnostic_blueprint_cells
      where organization_id is null and school_id is null order by grade`;
    const oral = ['orf_text', 'familiar_words_list', 'pseudowords_list'];
    const cell = (grade: number, measures: string[]) => ({
      grade,
      window_code: 'BOY',
      kind: 'measures',
      measures: [...measures, ...oral],
      revision: 1,
    });
    expect(cells).toEqual([
      cell(1, ['word_recognition', 'text1_comprehension']),
      cell(2, ['word_recognition', 'text1_comprehension', 'spelling_choice']),
      cell(3, ['text1_comprehension', 'text2_comprehension', 'spelling_choice']),
      cell(4, ['text1_comprehension', 'text2_comprehension', 'spelling_choice']),
    ]);
  });

  it('passes the language-safety filter on every student-facing string it stored', async () => {
    const filter = await reloadLanguageSafety(db.sql);
    const texts = await db.sql<{ text: string }[]>`
      select stem_ar as text from content_items
      union all select o->>'textAr' from content_items, jsonb_array_elements(options) o
      union all select hint_ar from content_items where hint_ar is not null
      union all select explanation_ar from content_items where explanation_ar is not null
      union all select title_ar from content_passages union all select body_ar from content_passages
      union all select prompt_ar from content_scaffold_prompts
      union all select reading_note_ar from content_word_lists where reading_note_ar is not null
      union all select unnest(words) from content_word_lists`;
    expect(texts.length).toBeGreaterThan(500);
    const rewritten = texts.filter((t) => filter.check(t.text, 'general').kind !== 'pass').map((t) => t.text);
    expect(rewritten).toEqual([]);
  });

  it('gives every item exactly one correct option among 2 to 4 distinct options', async () => {
    const [bad] = await db.sql`
      select count(*)::int as n from content_items i
      where jsonb_array_length(options) not between 2 and 4
         or (select count(*) from jsonb_array_elements(options) o where o->>'key' = i.correct_option_key) <> 1
         or (select count(distinct o->>'textAr') from jsonb_array_elements(options) o) <> jsonb_array_length(options)`;
    expect(bad).toEqual({ n: 0 });
  });

  it('is idempotent: a second run stores no content row, takes no pin, rewrites no cell and reports all unchanged', async () => {
    const before = await contentCounts();
    const pinsBefore = await db.sql`select id from content_item_bank_pins order by seq`;
    const total = Number(/accepted (\d+), unchanged 0, rejected 0;/.exec(first.stdout)![1]);
    const again = await runCliInProcess(['content', 'import', DEMO_PACK_DIR], env);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`accepted 0, unchanged ${total}, rejected 0; blueprint cells set 0, unchanged 4`);
    expect(await contentCounts()).toEqual(before);
    expect(await db.sql`select id from content_item_bank_pins order by seq`).toEqual(pinsBefore);
    // The re-run's batches (all rows unchanged) are approved as no-ops: nothing waits in the review queue.
    const pending = await db.sql`select id from content_import_batches where status = 'pending_review'`;
    expect(pending).toEqual([]);
    const revisions = await db.sql`select distinct revision from content_diagnostic_blueprint_cells`;
    expect(revisions).toEqual([{ revision: 1 }]);
  }, 120_000);
});

describe('qiraa content import (refusals)', () => {
  it('prints every rejected row and refused cell with its reason, exits 1 and leaves the broken batch pending', async () => {
    const packDir = await writePack(
      'broken',
      {
        'items.json': {
          contentKind: 'item',
          sourceDeclared: SOURCE,
          agreementSignoff: SIGNOFF,
          items: [
            trainingItem('test-ok'),
            trainingItem('test-grade', { sub_skill_id: 'ic_inference' }),
            trainingItem('test-unsafe', { stem_ar: 'أَنْتَ ضَعِيفٌ فِي الْقِرَاءَةِ، اخْتَرِ الْحَرَكَةَ' }),
          ],
        },
      },
      [{ grade: 3, window: 'MOY', measures: ['text1_comprehension', 'root_identification'] }],
    );
    const before = await contentCounts();
    const run = await runCliInProcess(['content', 'import', packDir], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('items.json: item test-grade: sub_skill_not_in_grade');
    expect(run.stderr).toContain('items.json: item test-unsafe: language_safety_blocked');
    expect(run.stderr).toMatch(/items\.json: batch bat_\w+ left pending_review/);
    expect(run.stderr).toMatch(/blueprint grade 3 MOY: provisional_not_publishable_globally/);
    expect(run.stdout).toMatch(/items\.json\s+item\s+accepted 1, unchanged 0, rejected 2\s+NOT LIVE/);
    expect(run.stdout).toContain('grade 3 MOY: refused');
    const items = await db.sql`select external_id, status from content_items where external_id like 'test-%'`;
    expect(items).toEqual([{ external_id: 'test-ok', status: 'pending_review' }]);
    const [moy] =
      await db.sql`select count(*)::int as n from content_diagnostic_blueprint_cells where window_code = 'MOY'`;
    expect(moy).toEqual({ n: 0 });
    expect(await contentCounts()).toEqual({ ...before, content_items: before.content_items! + 1 });
  }, 60_000);

  it('prints the problems of a refused form and stores none of it (exit 1)', async () => {
    const formItem = (position: number) => ({
      external_id: `test-form-wr-${position}`,
      content_role: 'screening',
      grade: 1,
      sub_skill_id: 'fw_common_words',
      item_pattern: 'word_match',
      measure_code: 'word_recognition',
      form_id: 'test-g1-moy',
      form_position: position,
      stem_ar: 'اِخْتَرِ الْكَلِمَةَ: بَابٌ',
      options: [option('a', 'بَابٌ'), option('b', 'نَابٌ')],
      correct_option_key: 'a',
    });
    const packDir = await writePack('short-form', {
      'form.json': {
        contentKind: 'screening_form',
        sourceDeclared: SOURCE,
        agreementSignoff: SIGNOFF,
        form: { external_id: 'test-g1-moy', grade: 1, window: 'MOY' },
        items: [formItem(1), formItem(3)],
      },
    });
    const before = await contentCounts();
    const run = await runCliInProcess(['content', 'import', packDir], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('form.json: item test-form-wr-1: form_rejected');
    expect(run.stderr).toContain('form.json: form: word_recognition position 2 missing');
    expect(run.stderr).toContain('form.json: form: word_recognition has 2 items, the catalog wants 4');
    expect(await contentCounts()).toEqual(before);
  }, 60_000);

  it('refuses a file that does not match the import body before writing anything (exit 1)', async () => {
    const packDir = await writePack('invalid', {
      'good.json': {
        contentKind: 'item',
        sourceDeclared: SOURCE,
        agreementSignoff: SIGNOFF,
        items: [trainingItem('test-never')],
      },
      'bad.json': { contentKind: 'item', sourceDeclared: SOURCE, agreementSignoff: SIGNOFF, items: [], colour: 'blue' },
    });
    const [batchesBefore] = await db.sql`select count(*)::int as n from content_import_batches`;
    const run = await runCliInProcess(['content', 'import', packDir], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/bad\.json: .*colour.*\(nothing imported\)/);
    const [batchesAfter] = await db.sql`select count(*)::int as n from content_import_batches`;
    expect(batchesAfter).toEqual(batchesBefore);
    const [never] = await db.sql`select count(*)::int as n from content_items where external_id = 'test-never'`;
    expect(never).toEqual({ n: 0 });
  }, 60_000);

  it('answers a folder without a manifest with exit 1 (a failure; 2 is for usage errors)', async () => {
    const run = await runCliInProcess(['content', 'import', path.join(dir, 'nowhere')], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/cannot read .*manifest\.json/);
  });
});

describe('the pack files are POST /api/items/import bodies', () => {
  it('imports every file of the manifest through the HTTP route (201, nothing rejected)', async () => {
    const t = await createTestApp();
    try {
      const w = await buildWorld(t);
      const manifest = JSON.parse(await readFile(path.join(DEMO_PACK_DIR, 'manifest.json'), 'utf8'));
      expect(manifest.files).toHaveLength(12);
      for (const file of manifest.files as string[]) {
        const body = JSON.parse(await readFile(path.join(DEMO_PACK_DIR, file), 'utf8'));
        // an organization admin imports into the organization's own scope
        const res = await client(t.app, w.a.adminToken).post('/api/items/import', body);
        expect(res.statusCode, `${file}: ${res.body}`).toBe(201);
        expect(res.json().counts.rejected, file).toBe(0);
        expect(res.json().organizationId).toBe(w.a.id);
      }
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('qiraa content import (after an interrupted run)', () => {
  it('puts live what an earlier run stored but never approved', async () => {
    const body = {
      contentKind: 'item',
      sourceDeclared: SOURCE,
      agreementSignoff: SIGNOFF,
      items: [trainingItem('test-resume')],
    } as unknown as ImportBodyInput;
    // The interrupted run: imported, stopped before its approval.
    const stored = await importContent({ sql: db.sql }, { organizationId: null, createdBy: null, body });
    expect(stored.counts).toMatchObject({ accepted: 1, rejected: 0 });
    const packDir = await writePack('resume', { 'items.json': body });
    const run = await runCliInProcess(['content', 'import', packDir], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/items\.json\s+item\s+accepted 0, unchanged 1, rejected 0\s+approved bat_/);
    const items = await db.sql`select status from content_items where external_id = 'test-resume'`;
    expect(items).toEqual([{ status: 'operational' }]);
  }, 60_000);
});
