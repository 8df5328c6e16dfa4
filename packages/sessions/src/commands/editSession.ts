import { loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { conflict, unprocessable } from '@qiraa/http-kit';
import type { Theme } from '../codes';
import { sessionRow } from '../queries/sessionQueries';
import { logTransition } from './sessionLog';

/**
 * PATCH edit: a draft only (409 not_draft after accept or cancel). Sub-skills 1 to 5 (the schema), each of the
 * catalog and valid in the blueprint's grade (422); the theme is replaced from the closed list. The advisory
 * note on thin item coverage is in the answer (sessionView).
 */
export async function editSession(
  deps: { sql: Sql },
  actorId: number,
  sessionId: string,
  edit: { subSkillIds?: string[]; theme?: Theme },
): Promise<void> {
  const catalog = await loadCatalog(deps.sql);
  await inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    if (row.status !== 'draft') throw conflict('not_draft', `the session is ${row.status}; only a draft is edited`);
    if (edit.subSkillIds) {
      const [bp] = await tx<{ grade: number }[]>`select grade from ses_blueprints where id = ${row.blueprint_id}`;
      const details = edit.subSkillIds.flatMap((id, i) => {
        const s = catalog.subSkillById.get(id);
        if (!s) return [{ field: `subSkillIds/${i}`, issue: 'unknown sub-skill' }];
        if (bp!.grade < s.gradeMin || bp!.grade > s.gradeMax) {
          return [{ field: `subSkillIds/${i}`, issue: `not taught in grade ${bp!.grade}` }];
        }
        return [];
      });
      if (details.length > 0)
        throw unprocessable('unknown_sub_skill', 'a sub-skill is not in the catalog for the grade', details);
    }
    await tx`
      update ses_sessions set
        sub_skill_ids = ${edit.subSkillIds ?? row.sub_skill_ids},
        theme = ${edit.theme ?? row.theme},
        updated_at = now()
      where id = ${sessionId}`;
    await logTransition(tx, sessionId, 'edited', actorId, { ...edit });
  });
}
