import { client, useTestWorld } from '@qiraa/app/testing';
import { loadLanguageSafety } from '@qiraa/language-safety';
import { describe, expect, it } from 'vitest';
import { inGradeRange } from './catalogTypes';
import { loadCatalog } from './loadCatalog';

const { t, w } = useTestWorld();

describe('content catalog', () => {
  it('holds grades 1-4, three windows, four training levels and measures for every teacher-page cell', async () => {
    const catalog = await loadCatalog(t.db.sql);
    expect(catalog.version).toBe('2026.2');
    expect(catalog.grades.map((g) => g.grade)).toEqual([1, 2, 3, 4]);
    expect(catalog.windows.map((x) => x.code)).toEqual(['BOY', 'MOY', 'EOY']);
    expect(catalog.trainingLevels.map((l) => l.number)).toEqual([1, 2, 3, 4]);
    expect(new Set(catalog.measures.map((m) => m.teacherCell))).toEqual(
      new Set(['digital', 'oral_text', 'oral_familiar_words', 'oral_pseudowords']),
    );
    for (const grade of [1, 2, 3, 4]) {
      const digital = catalog.measures.filter((m) => m.mode === 'digital' && inGradeRange(m, grade));
      expect(digital.length, `grade ${grade} digital measures`).toBeGreaterThan(0);
      for (const cell of ['familiar_word_reading', 'pseudoword_decoding']) {
        expect(catalog.wordListCells.some((c) => c.grade === grade && c.skillId === cell)).toBe(true);
      }
    }
  });

  it('labels every entry in Arabic that passes the language-safety filter', async () => {
    const catalog = await loadCatalog(t.db.sql);
    const filter = await loadLanguageSafety(t.db.sql);
    const labels = [
      ...catalog.grades.map((g) => g.nameAr),
      ...catalog.windows.map((x) => x.nameAr),
      ...catalog.macroDomains.map((d) => d.labelAr),
      ...catalog.skills.map((s) => s.labelAr),
      ...catalog.subSkills.map((s) => s.labelAr),
      ...catalog.measures.map((m) => m.labelAr),
      ...catalog.itemPatterns.map((p) => p.labelAr),
      ...catalog.trainingLevels.map((l) => l.nameAr),
      ...catalog.supportBundles.flatMap((b) => [b.labelAr, ...b.steps.map((x) => x.labelAr)]),
    ];
    for (const label of labels) {
      expect(label, label).toMatch(/^[\u0600-\u06FF\s]+$/);
      expect(filter.check(label, 'parent'), label).toEqual({ kind: 'pass' });
    }
  });

  it('is served to back-office callers over HTTP, without the lookup maps', async () => {
    const res = await client(t.app, w.a.adminToken).get('/api/admin/content/catalog');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.subSkills).toHaveLength(18);
    expect(body.measures.find((m: { measureCode: string }) => m.measureCode === 'root_identification')).toMatchObject({
      scoringStatus: 'provisional',
      sectionKey: 'roots',
      formItemCount: 3,
    });
    expect(body).not.toHaveProperty('skillById');
    // Support bundles (release 2026.2): one per profile code and anchor domain the recommendation rule picks.
    expect(body.supportBundles).toHaveLength(7);
    expect(body.supportBundles[2]).toMatchObject({
      id: 'bnd_decoding_foundations',
      profileCode: 'PR2-02',
      anchorMacroDomainId: 'decoding',
      steps: [{ ordinal: 1, stepCode: 'letter_sound_review', skillId: 'letter_sounds' }, {}, {}, {}],
    });
    expect((await client(t.app, w.a.teacherToken).get('/api/admin/content/catalog')).statusCode).toBe(403);
  });
});
