import { currentItemBankPin, loadCatalog } from '@qiraa/content';
import type { Sql } from '@qiraa/db';
import { inTransaction } from '@qiraa/db';
import { CURRENT_RULE_SET, latestSkillStatuses } from '@qiraa/decisions';
import { conflict, unprocessable } from '@qiraa/http-kit';
import { classRoster } from '@qiraa/identity';
import type { Clock } from '@qiraa/kernel';
import { loadLanguageSafety } from '@qiraa/language-safety';
import type { DeliveryMode, Medium } from '../codes';
import { newSessionsId } from '../ids';
import { itemsForStudents } from '../queries/itemsForSlots';
import { sessionRow } from '../queries/sessionQueries';
import { logTransition } from './sessionLog';

/**
 * POST accept: draft → previewed, one row per active student of the class. A student whose standing decision
 * on any target sub-skill is `do_not_decide_yet` is held out (listed as not included; rule SHO-01); a student
 * with no decision is included. The medium of each child is frozen here (online, printable, or per child for
 * mixed: printedStudentIds on paper, the rest online), and so are the items and the pins (item bank, rule
 * sets, catalog). No edit after. The session row is locked: two accepts, one wins, the other is 409.
 */
export async function acceptSession(
  /** `clock`: the runtime's; the session's acceptedAt is its now (the wall clock only without one). */
  deps: { sql: Sql; clock?: Clock },
  actorId: number,
  sessionId: string,
  input: { deliveryMode: DeliveryMode; printedStudentIds?: number[] },
): Promise<void> {
  const [catalog, filter, itemBankPinId] = await Promise.all([
    loadCatalog(deps.sql),
    loadLanguageSafety(deps.sql),
    currentItemBankPin(deps.sql),
  ]);
  const now = deps.clock?.now() ?? new Date();
  await inTransaction(deps.sql, async ({ sql: tx }) => {
    const row = await sessionRow(tx, sessionId, true);
    if (row.status !== 'draft') throw conflict('not_draft', `the session is ${row.status}; only a draft is accepted`);
    const students = await classRoster(tx, row.class_id);
    const printed = input.printedStudentIds ?? [];
    if (printed.length > 0 && input.deliveryMode !== 'mixed') {
      throw unprocessable('printed_students_only_for_mixed', 'printedStudentIds is for a mixed delivery only', [
        { field: 'printedStudentIds', issue: 'only with deliveryMode mixed' },
      ]);
    }
    const strangers = printed.filter((id) => !students.includes(id));
    if (strangers.length > 0) {
      throw unprocessable('not_in_class', 'printedStudentIds names a student not in the class', [
        { field: 'printedStudentIds', issue: `not in the class: ${strangers.join(', ')}` },
      ]);
    }
    const statuses = await latestSkillStatuses(tx, students);
    const targets = new Set(row.sub_skill_ids);
    const heldOut = new Set(
      statuses.filter((s) => s.doNotDecideYet && targets.has(s.subSkillId)).map((s) => s.studentId),
    );
    const [bp] = await tx<{ grade: number; content_hash: string; external_id: string }[]>`
      select grade, content_hash, external_id from ses_blueprints where id = ${row.blueprint_id}`;
    const items = await itemsForStudents(
      tx,
      { organizationId: row.organization_id, grade: bp!.grade, subSkillIds: row.sub_skill_ids },
      students,
      statuses,
    );
    const mediumOf = (id: number): Medium =>
      input.deliveryMode === 'mixed'
        ? printed.includes(id)
          ? 'printable'
          : 'online'
        : input.deliveryMode === 'online'
          ? 'online'
          : 'printable';
    const slots = students.map((id) => ({
      session_id: sessionId,
      student_id: id,
      slot_id: newSessionsId('sst'),
      included: !heldOut.has(id),
      held_out_reason: heldOut.has(id) ? 'do_not_decide_yet' : null,
      medium: mediumOf(id),
      item_ids: items.get(id) ?? [],
    }));
    if (slots.length > 0) await tx`insert into ses_session_students ${tx(slots as never)}`;
    const pins = {
      blueprintId: row.blueprint_id,
      blueprintExternalId: bp!.external_id,
      blueprintVersion: row.blueprint_version,
      blueprintContentHash: bp!.content_hash,
      itemBankPinId,
      decisionRuleSetVersion: CURRENT_RULE_SET.version,
      decisionRuleSetVersionsSeen: [...new Set(statuses.map((s) => s.ruleSetVersion))].sort(),
      languageSafetyRuleSetVersion: filter.version,
      catalogVersion: catalog.version,
    };
    await tx`
      update ses_sessions set status = 'previewed', delivery_mode = ${input.deliveryMode},
        pins = ${tx.json(pins as never)}, accepted_at = ${now}, updated_at = ${now}
      where id = ${sessionId}`;
    await logTransition(tx, sessionId, 'accepted', actorId, {
      deliveryMode: input.deliveryMode,
      included: slots.filter((s) => s.included).length,
      heldOut: heldOut.size,
    });
  });
}
