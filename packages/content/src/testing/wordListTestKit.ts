import type { Client } from '@qiraa/app/testing';
import type { Sql } from '@qiraa/db';

/** Grade 1 familiar words (voweled, as a first-grade sheet prints them). */
export const FAMILIAR_G1 = ['بَيْت', 'قَلَم', 'شَمْس', 'وَرْدَة', 'كِتَاب', 'بَاب', 'سَمَك', 'جَمَل', 'قَمَر', 'نَهْر', 'شَجَرَة', 'تُفَّاح'];
/** Grade 1 pseudowords: closed syllables that spell no word. */
export const PSEUDO_G1 = ['بَلْم', 'سَكْت', 'دَمْف', 'نَلْب', 'تَمْس', 'لَفْد', 'رَبْك', 'غَمْت', 'شَدْم', 'وَنْت', 'فَسْم', 'حَبْد'];
/** Grade 3 familiar words. */
export const FAMILIAR_G3 = [
  'مَدْرَسَة',
  'حَدِيقَة',
  'سَيَّارَة',
  'مِفْتَاح',
  'نَافِذَة',
  'طَائِرَة',
  'مَكْتَبَة',
  'بُرْتُقَال',
  'دَفْتَر',
  'مِسْطَرَة',
  'قِطَار',
  'حِصَان',
  'عُصْفُور',
  'فَرَاشَة',
  'غَيْمَة',
  'مَطَر',
  'جَبَل',
  'بَحْر',
  'سَفِينَة',
  'مَلْعَب',
  'طَاوِلَة',
  'كُرْسِيّ',
  'مِظَلَّة',
  'خُبْز',
];
/** Grade 4 familiar words (the cell takes 25 to 80). */
export const FAMILIAR_G4 = [...FAMILIAR_G3, 'صَدِيق', 'مُعَلِّمَة', 'حَقِيبَة', 'قِصَّة'];
export const READING_NOTE = 'يقرأ الطفل الكلمات من اليمين إلى اليسار، ويشير المعلم إلى كل كلمة';

let serial = 0;
/** A fresh externalId (unique within the test process). */
export const newExternalId = (prefix = 'wl') => `${prefix}-${process.pid}-${serial++}`;

/** A valid create body: a grade 1 familiar-word BOY list of ten words; `over` replaces fields. */
export const createBody = (over: Record<string, unknown> = {}) => ({
  externalId: newExternalId(),
  grade: 1,
  skillId: 'familiar_word_reading',
  window: 'BOY',
  words: FAMILIAR_G1.slice(0, 10),
  readingNoteAr: READING_NOTE,
  ...over,
});

export interface CreatedList {
  id: string;
  externalId: string;
  version: number;
  status: string;
  [key: string]: unknown;
}

/** Creates a list and fails the test unless it is created. */
export async function createList(api: Client, over: Record<string, unknown> = {}): Promise<CreatedList> {
  const res = await api.post('/api/admin/word-lists', createBody(over));
  if (res.statusCode !== 201) throw new Error(`create word list: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Rows of content_word_lists: refused writes must leave it unchanged. */
export const wordListRowCount = async (sql: Sql) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from content_word_lists`)[0]!.n;

/** A fresh organization with one school, made by the super-admin. */
export async function freshOrganization(root: Client, slug: string): Promise<{ id: string; schoolId: string }> {
  const org = await root.post('/api/organizations', {
    name: `منظمة ${slug}`,
    slug,
    country: 'JO',
    defaultLocale: 'ar-JO',
  });
  if (org.statusCode !== 201) throw new Error(`organization: ${org.statusCode} ${org.body}`);
  const { id } = org.json();
  const school = await root.post('/api/schools', { organizationId: id, name: 'مدرسة الفجر', country: 'JO' });
  if (school.statusCode !== 201) throw new Error(`school: ${school.statusCode} ${school.body}`);
  return { id, schoolId: school.json().id };
}

/** Waits until some backend of the test database waits on a lock (a request blocked on a held row). */
export async function waitForLockWait(sql: Sql): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`;
    if (row!.n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no request waited on the lock');
}
