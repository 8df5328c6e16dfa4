import type { AnySql } from '@qiraa/db';
import type { Catalog } from './catalogTypes';

// One read per connection pool: catalogs change only by migration, and tests use one pool per database.
const cache = new WeakMap<object, Promise<Catalog>>();

/** The content catalogs. Pass the pool (the cache is keyed on it), not a transaction. */
export function loadCatalog(sql: AnySql): Promise<Catalog> {
  let entry = cache.get(sql);
  if (!entry) {
    entry = readCatalog(sql);
    cache.set(sql, entry);
    entry.catch(() => cache.delete(sql));
  }
  return entry;
}

async function readCatalog(sql: AnySql): Promise<Catalog> {
  const [release] = await sql<{ version: string }[]>`
    select version from content_catalog_releases order by released_at desc, version desc limit 1`;
  const grades = await sql<Catalog['grades']>`
    select grade, name_ar as "nameAr" from content_grades order by grade`;
  const windows = await sql<Catalog['windows']>`
    select code, name_ar as "nameAr", ordinal from content_windows order by ordinal`;
  const macroDomains = await sql<Catalog['macroDomains']>`
    select id, label_ar as "labelAr" from content_macro_domains order by ordinal`;
  const skills = await sql<Catalog['skills']>`
    select id, macro_domain_id as "macroDomainId", label_ar as "labelAr" from content_skills order by ordinal`;
  const subSkills = await sql<Catalog['subSkills']>`
    select id, skill_id as "skillId", label_ar as "labelAr", grade_min as "gradeMin", grade_max as "gradeMax"
    from content_sub_skills order by ordinal`;
  const measures = await sql<Catalog['measures']>`
    select measure_code as "measureCode", label_ar as "labelAr", skill_id as "skillId", grade_min as "gradeMin",
           grade_max as "gradeMax", mode, teacher_cell as "teacherCell", section_key as "sectionKey",
           form_item_count as "formItemCount", minutes_per_student as "minutesPerStudent",
           scoring_status as "scoringStatus"
    from content_measures order by ordinal`;
  const itemPatterns = await sql<Catalog['itemPatterns']>`
    select code, label_ar as "labelAr", needs_passage as "needsPassage" from content_item_patterns order by code`;
  const trainingLevels = await sql<Catalog['trainingLevels']>`
    select number, name_ar as "nameAr" from content_training_levels order by number`;
  const wordListCells = await sql<Catalog['wordListCells']>`
    select c.grade, c.skill_id as "skillId", c.min_words as "minWords", c.max_words as "maxWords"
    from content_word_list_cells c join content_skills s on s.id = c.skill_id order by c.grade, s.ordinal`;
  const bundles = await sql<Omit<Catalog['supportBundles'][number], 'steps'>[]>`
    select id, label_ar as "labelAr", profile_code as "profileCode", anchor_macro_domain_id as "anchorMacroDomainId",
           grade_min as "gradeMin", grade_max as "gradeMax"
    from content_support_bundles order by ordinal`;
  const steps = await sql<(Catalog['supportBundles'][number]['steps'][number] & { bundleId: string })[]>`
    select bundle_id as "bundleId", ordinal, step_code as "stepCode", label_ar as "labelAr", skill_id as "skillId"
    from content_support_bundle_steps order by bundle_id, ordinal`;
  const supportBundles = bundles.map((b) => ({
    ...b,
    steps: steps.filter((s) => s.bundleId === b.id).map(({ bundleId: _, ...step }) => step),
  }));
  return {
    version: release?.version ?? 'none',
    grades: [...grades],
    windows: [...windows],
    macroDomains: [...macroDomains],
    skills: [...skills],
    subSkills: [...subSkills],
    measures: [...measures],
    itemPatterns: [...itemPatterns],
    trainingLevels: [...trainingLevels],
    wordListCells: [...wordListCells],
    supportBundles,
    skillById: new Map(skills.map((s) => [s.id, s])),
    subSkillById: new Map(subSkills.map((s) => [s.id, s])),
    measureByCode: new Map(measures.map((m) => [m.measureCode, m])),
    patternByCode: new Map(itemPatterns.map((p) => [p.code, p])),
  };
}
