import { client, useTestWorld } from '@qiraa/app/testing';
import { describe, expect, it } from 'vitest';
import { resolveBlueprintCell, setBlueprintCell } from '../index';
import { insertBlueprintCell, insertForm } from '../testing/contentFixtures';

const { t, w } = useTestWorld();

const base = '/api/admin/diagnostic-blueprint';
const cellCount = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from content_diagnostic_blueprint_cells`)[0]!.n;
const cellRows = async () =>
  t.db.sql`select organization_id, school_id, grade, window_code, kind, measures, sub_skill_ids, revision
           from content_diagnostic_blueprint_cells order by id`;
const orgQ = () => `?organizationId=${w.a.id}`;
const schoolQ = () => `?organizationId=${w.a.id}&schoolId=${w.a.schoolId}`;

describe('GET /api/admin/diagnostic-blueprint/{grade}/{cycle}', () => {
  it('an untouched cell is unset at every scope', async () => {
    const res = await client(t.app, w.a.adminToken).get(`${base}/4/EOY${schoolQ()}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      grade: 4,
      cycle: 'EOY',
      scope: 'school',
      stored: null,
      resolved: { source: null, kind: 'unset', measures: [], subSkillIds: [] },
      measureWarnings: [],
    });
  });

  it('grade outside 1-4 and an unknown cycle are 422', async () => {
    for (const path of ['/5/BOY', '/0/BOY', '/2/XOY']) {
      const res = await client(t.app, w.a.adminToken).get(`${base}${path}`);
      expect(res.statusCode, path).toBe(422);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('schoolId without organizationId is 422; another organization or its school is 404', async () => {
    const lone = await client(t.app, w.a.adminToken).get(`${base}/2/BOY?schoolId=${w.a.schoolId}`);
    expect(lone.statusCode).toBe(422);
    expect(lone.json().details).toEqual([{ field: 'schoolId', issue: 'a school scope needs its organizationId' }]);
    const otherOrg = await client(t.app, w.a.adminToken).get(`${base}/2/BOY?organizationId=${w.b.id}`);
    expect(otherOrg.statusCode).toBe(404);
    const otherSchool = await client(t.app, w.a.adminToken).get(
      `${base}/2/BOY?organizationId=${w.a.id}&schoolId=${w.b.schoolId}`,
    );
    expect(otherSchool.statusCode).toBe(404);
    const missingOrg = await client(t.app, w.superToken).get(`${base}/2/BOY?organizationId=org_AAAAAAAAAAAA`);
    expect(missingOrg.statusCode).toBe(404);
  });
});

describe('PUT /api/admin/diagnostic-blueprint/{grade}/{cycle}', () => {
  it('resolves school, then org, then global; each scope stores its own cell', async () => {
    const sup = client(t.app, w.superToken);
    const admin = client(t.app, w.a.adminToken);
    const g = await sup.put(`${base}/1/BOY`, { measures: ['word_recognition', 'orf_text'] });
    expect(g.statusCode, g.body).toBe(200);
    expect(g.json()).toMatchObject({
      scope: 'global',
      stored: {
        kind: 'measures',
        measures: ['word_recognition', 'orf_text'],
        revision: 1,
        acknowledgeProvisional: false,
      },
      resolved: { source: 'global', kind: 'measures' },
      // No operational form holds word_recognition for grade 1 BOY yet.
      measureWarnings: [{ code: 'no_operational_form', measureCode: 'word_recognition' }],
    });
    expect(typeof g.json().stored.updatedBy).toBe('number');

    const atOrg = await admin.get(`${base}/1/BOY${orgQ()}`);
    expect(atOrg.json()).toMatchObject({ scope: 'org', stored: null, resolved: { source: 'global' } });

    const o = await admin.put(`${base}/1/BOY${orgQ()}`, { measures: ['text1_comprehension', 'familiar_words_list'] });
    expect(o.statusCode, o.body).toBe(200);
    expect(o.json().resolved).toEqual({
      source: 'org',
      kind: 'measures',
      measures: ['text1_comprehension', 'familiar_words_list'],
      subSkillIds: [],
    });
    const s = await admin.put(`${base}/1/BOY${schoolQ()}`, { measures: [] });
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json()).toMatchObject({ scope: 'school', stored: { kind: 'not_screened', measures: [] } });
    expect(s.json().resolved).toEqual({ source: 'school', kind: 'not_screened', measures: [], subSkillIds: [] });

    // The organization's other school still gets the organization's cell; organization B the global one.
    const other = await admin.get(`${base}/1/BOY?organizationId=${w.a.id}&schoolId=${w.a.otherSchoolId}`);
    expect(other.json().resolved.source).toBe('org');
    const orgB = await client(t.app, w.b.adminToken).get(`${base}/1/BOY?organizationId=${w.b.id}`);
    expect(orgB.json().resolved.source).toBe('global');

    // The exported resolver (assessment and the content pack loader) agrees with the route.
    const resolved = await resolveBlueprintCell(t.runtime.deps.sql, {
      organizationId: w.a.id,
      schoolId: w.a.schoolId,
      grade: 1,
      window: 'BOY',
    });
    expect(resolved).toMatchObject({ source: 'school', kind: 'not_screened' });
  });

  it('a legacy subSkillIds cell is kind skills with the legacy_cell warning', async () => {
    const res = await client(t.app, w.a.adminToken).put(`${base}/3/MOY${orgQ()}`, {
      subSkillIds: ['ic_inference', 'lc_explicit_detail'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      stored: { kind: 'skills', measures: [], subSkillIds: ['ic_inference', 'lc_explicit_detail'] },
      measureWarnings: [{ code: 'legacy_cell', measureCode: null }],
    });
  });

  it('both or neither of measures and subSkillIds is 422 VALIDATION_ERROR, nothing stored', async () => {
    const before = await cellCount();
    const admin = client(t.app, w.a.adminToken);
    const both = await admin.put(`${base}/2/MOY${orgQ()}`, { measures: ['text1_comprehension'], subSkillIds: ['x'] });
    expect(both.statusCode).toBe(422);
    expect(both.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(both.json().reason).toBeUndefined();
    const neither = await admin.put(`${base}/2/MOY${orgQ()}`, { strict: true });
    expect(neither.statusCode).toBe(422);
    const unknownKey = await admin.put(`${base}/2/MOY${orgQ()}`, { measures: [], extra: 1 });
    expect(unknownKey.statusCode).toBe(422);
    expect(await cellCount()).toBe(before);
  });

  it('an organization admin writing the global cell is 403; another organization is 404', async () => {
    const before = await cellCount();
    const admin = client(t.app, w.a.adminToken);
    const global = await admin.put(`${base}/2/EOY`, { measures: ['text1_comprehension'] });
    expect(global.statusCode).toBe(403);
    expect(global.json().code).toBe('PERMISSION_DENIED');
    const otherOrg = await admin.put(`${base}/2/EOY?organizationId=${w.b.id}`, { measures: ['text1_comprehension'] });
    expect(otherOrg.statusCode).toBe(404);
    expect(await cellCount()).toBe(before);
  });

  describe('422 reasons (nothing stored)', () => {
    const cases: [string, string, Record<string, unknown>, boolean][] = [
      ['duplicate_measure', '2/BOY', { measures: ['text1_comprehension', 'text1_comprehension'] }, false],
      ['measure_not_in_grade', '3/BOY', { measures: ['word_recognition'] }, false],
      ['catalog_gap', '2/BOY', { measures: ['text1_comprehension', 'no_such_measure'] }, false],
      ['catalog_gap', '2/BOY', { subSkillIds: ['no_such_sub_skill'] }, false],
      ['no_digital_measure', '2/BOY', { measures: ['orf_text', 'pseudowords_list'] }, false],
      ['carrier_conflict', '2/BOY', { measures: ['spelling_choice', 'orf_text', 'orf_short_text'] }, false],
      ['no_operational_form', '2/BOY', { measures: ['spelling_choice'], strict: true }, false],
      ['provisional_scoring_table', '3/BOY', { measures: ['text1_comprehension', 'root_identification'] }, false],
      [
        'provisional_not_publishable_globally',
        '3/BOY',
        { measures: ['root_identification'], acknowledgeProvisional: true },
        true,
      ],
      ['duplicate_sub_skill', '2/BOY', { subSkillIds: ['lc_explicit_detail', 'lc_explicit_detail'] }, false],
      ['sub_skill_not_in_grade', '2/BOY', { subSkillIds: ['ic_inference'] }, false],
    ];
    it.each(cases)('%s (%s %j)', async (reason, cell, body, global) => {
      const before = await cellRows();
      const res = global
        ? await client(t.app, w.superToken).put(`${base}/${cell}`, body)
        : await client(t.app, w.a.adminToken).put(`${base}/${cell}${orgQ()}`, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', reason });
      expect(res.json().details.length).toBeGreaterThan(0);
      expect(await cellRows()).toEqual(before);
    });

    it('the same provisional cell is accepted per organization when acknowledged, with a warning', async () => {
      const res = await client(t.app, w.a.adminToken).put(`${base}/3/BOY${orgQ()}`, {
        measures: ['text1_comprehension', 'root_identification'],
        acknowledgeProvisional: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().stored.acknowledgeProvisional).toBe(true);
      expect(res.json().measureWarnings).toEqual([
        { code: 'no_operational_form', measureCode: 'text1_comprehension' },
        { code: 'no_operational_form', measureCode: 'root_identification' },
        { code: 'provisional_scoring_table', measureCode: 'root_identification' },
      ]);
    });
  });

  it('strict passes once a visible operational form holds the measure; a short form warns thin_pool', async () => {
    await insertForm(t.db.sql, {
      organizationId: w.a.id,
      grade: 4,
      window: 'MOY',
      measures: { text1_comprehension: 3, spelling_choice: 2 },
    });
    // Organization A's form is not visible to a global cell or to organization B.
    const global = await client(t.app, w.superToken).put(`${base}/4/MOY`, {
      measures: ['text1_comprehension'],
      strict: true,
    });
    expect(global.statusCode).toBe(422);
    expect(global.json().reason).toBe('no_operational_form');
    const res = await client(t.app, w.a.adminToken).put(`${base}/4/MOY${schoolQ()}`, {
      measures: ['text1_comprehension', 'spelling_choice', 'orf_text'],
      strict: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().measureWarnings).toEqual([{ code: 'thin_pool', measureCode: 'spelling_choice' }]);
  });

  it('ifRevision: 412 stale when it differs, else the revision is bumped', async () => {
    const admin = client(t.app, w.a.adminToken);
    const first = await admin.put(`${base}/4/BOY${orgQ()}`, { measures: ['text1_comprehension'], ifRevision: 1 });
    expect(first.statusCode).toBe(412);
    expect(first.json()).toMatchObject({ code: 'PRECONDITION_FAILED', reason: 'stale' });
    const created = await admin.put(`${base}/4/BOY${orgQ()}`, { measures: ['text1_comprehension'] });
    expect(created.json().stored.revision).toBe(1);
    const before = await cellRows();
    const stale = await admin.put(`${base}/4/BOY${orgQ()}`, { measures: ['text2_comprehension'], ifRevision: 2 });
    expect(stale.statusCode).toBe(412);
    expect(stale.json().reason).toBe('stale');
    expect(await cellRows()).toEqual(before);
    const next = await admin.put(`${base}/4/BOY${orgQ()}`, { measures: ['text2_comprehension'], ifRevision: 1 });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().stored).toMatchObject({ revision: 2, measures: ['text2_comprehension'] });
  });

  it('setBlueprintCell (the export) answers a discriminated refusal and writes nothing', async () => {
    const before = await cellCount();
    const result = await setBlueprintCell(t.runtime.deps.sql, {
      organizationId: w.a.id,
      schoolId: null,
      grade: 2,
      window: 'EOY',
      body: { content: { measures: ['orf_text'] } },
      updatedBy: null,
    });
    expect(result).toEqual({
      ok: false,
      reason: 'no_digital_measure',
      details: [{ field: 'measures', issue: 'the cell needs at least one digital measure' }],
    });
    expect(await cellCount()).toBe(before);
  });
});

describe('GET measureWarnings on a stored cell today’s rules refuse', () => {
  it('answers invalid_cell', async () => {
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.b.id,
      grade: 3,
      window: 'EOY',
      kind: 'measures',
      measures: ['root_identification'],
    });
    const res = await client(t.app, w.b.adminToken).get(`${base}/3/EOY?organizationId=${w.b.id}`);
    expect(res.json().measureWarnings).toEqual([{ code: 'invalid_cell', measureCode: null }]);
  });
});

describe('GET /api/admin/diagnostic-blueprint (the grid)', () => {
  it('lists 12 cells with what applies and which scopes store them', async () => {
    await insertBlueprintCell(t.db.sql, { grade: 2, window: 'MOY', kind: 'not_screened' });
    await insertBlueprintCell(t.db.sql, {
      organizationId: w.a.id,
      schoolId: w.a.otherSchoolId,
      grade: 2,
      window: 'MOY',
      kind: 'measures',
      measures: ['spelling_choice'],
    });
    const res = await client(t.app, w.a.adminToken).get(
      `${base}?organizationId=${w.a.id}&schoolId=${w.a.otherSchoolId}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ scope: 'school', organizationId: w.a.id, schoolId: w.a.otherSchoolId });
    expect(body.cells.map((c: { grade: number; cycle: string }) => `${c.grade}${c.cycle}`)).toEqual([
      '1BOY',
      '1MOY',
      '1EOY',
      '2BOY',
      '2MOY',
      '2EOY',
      '3BOY',
      '3MOY',
      '3EOY',
      '4BOY',
      '4MOY',
      '4EOY',
    ]);
    const at = (key: string) =>
      body.cells.find((c: { grade: number; cycle: string }) => `${c.grade}${c.cycle}` === key);
    expect(at('2MOY')).toEqual({
      grade: 2,
      cycle: 'MOY',
      resolved: { source: 'school', kind: 'measures', measures: ['spelling_choice'], subSkillIds: [] },
      storedScopes: ['global', 'school'],
    });
    expect(at('1EOY')).toMatchObject({ resolved: { source: null, kind: 'unset' }, storedScopes: [] });
    // The other school's override is not part of the global view.
    const global = await client(t.app, w.a.adminToken).get(base);
    expect(
      global.json().cells.find((c: { grade: number; cycle: string }) => c.grade === 2 && c.cycle === 'MOY'),
    ).toMatchObject({ resolved: { source: 'global', kind: 'not_screened' }, storedScopes: ['global'] });
    const other = await client(t.app, w.a.adminToken).get(`${base}?organizationId=${w.b.id}`);
    expect(other.statusCode).toBe(404);
  });
});

describe('DELETE /api/admin/diagnostic-blueprint/{grade}/{cycle}', () => {
  it('removes a scope’s override so the next scope up applies; nothing stored is 404', async () => {
    const admin = client(t.app, w.a.adminToken);
    await client(t.app, w.superToken).put(`${base}/1/MOY`, { measures: ['text1_comprehension'] });
    await admin.put(`${base}/1/MOY${orgQ()}`, { measures: ['word_recognition'] });
    const school = await admin.put(`${base}/1/MOY${schoolQ()}`, { measures: ['spelling_choice'] });
    expect(school.statusCode, school.body).toBe(422); // spelling_choice is grades 2-4
    await admin.put(`${base}/1/MOY${schoolQ()}`, { measures: ['text1_comprehension', 'word_recognition'] });

    const stale = await admin.delete(`${base}/1/MOY${schoolQ()}&ifRevision=9`);
    expect(stale.statusCode).toBe(412);
    expect(stale.json().reason).toBe('stale');

    const removed = await admin.delete(`${base}/1/MOY${schoolQ()}&ifRevision=1`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ scope: 'school', stored: null, resolved: { source: 'org' } });
    const again = await admin.delete(`${base}/1/MOY${schoolQ()}`);
    expect(again.statusCode).toBe(404);

    const org = await admin.delete(`${base}/1/MOY${orgQ()}`);
    expect(org.json().resolved).toMatchObject({ source: 'global', measures: ['text1_comprehension'] });
  });

  it('the global cell is deleted by the super-admin only (403 otherwise)', async () => {
    await client(t.app, w.superToken).put(`${base}/4/EOY`, { measures: ['text1_comprehension'] });
    const before = await cellCount();
    const denied = await client(t.app, w.a.adminToken).delete(`${base}/4/EOY`);
    expect(denied.statusCode).toBe(403);
    expect(await cellCount()).toBe(before);
    const ok = await client(t.app, w.superToken).delete(`${base}/4/EOY`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().resolved.kind).toBe('unset');
    expect(await cellCount()).toBe(before - 1);
  });
});

describe('POST /api/admin/diagnostic-blueprint/{grade}/{cycle}/validate', () => {
  it('answers what the PUT would, writing nothing', async () => {
    const admin = client(t.app, w.a.adminToken);
    const before = await cellRows();
    const ok = await admin.post(`${base}/2/EOY/validate${orgQ()}`, { measures: ['text1_comprehension', 'orf_text'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({
      ok: true,
      measureWarnings: [{ code: 'no_operational_form', measureCode: 'text1_comprehension' }],
    });
    const refused = await admin.post(`${base}/2/EOY/validate${orgQ()}`, { measures: ['orf_text', 'orf_short_text'] });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({
      ok: false,
      reason: 'carrier_conflict',
      details: [{ field: 'measures[1]', issue: 'teacher-page cell oral_text is already filled by orf_text' }],
      measureWarnings: [],
    });
    const stale = await admin.post(`${base}/2/EOY/validate${orgQ()}`, { measures: [], ifRevision: 3 });
    expect(stale.json()).toMatchObject({ ok: false, reason: 'stale' });
    const malformed = await admin.post(`${base}/2/EOY/validate${orgQ()}`, {});
    expect(malformed.statusCode).toBe(422);
    const global = await admin.post(`${base}/2/EOY/validate`, { measures: [] });
    expect(global.statusCode).toBe(403);
    expect(await cellRows()).toEqual(before);
  });
});
