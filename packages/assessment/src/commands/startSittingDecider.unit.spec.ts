import { strictEqual } from 'node:assert/strict';
import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { deterministicEventId } from '@qiraa/eventstore';
import { describe, it } from 'vitest';
import { SITTING_STARTED } from '../events';
import type { PlanOutcome } from './planSitting';
import { SittingRefused } from './refusal';
import { type StartFacts, type StartSitting, type StartState, startSittingDecider } from './startSitting';

const spec = DeciderSpecification.for(startSittingDecider);
const attemptId = 'a1b2c3d4-0000-4000-8000-000000000003';
const now = new Date('2026-10-05T09:00:00Z');
const cls = { classId: 'c1', schoolId: 's1', organizationId: 'org_1', grade: 2, academicYear: '2026-2027' };
const plan = {
  measures: ['M1'],
  plan: [{ itemId: 'item-1', measureCode: 'M1' }],
  sections: [],
  pins: { itemBank: 'bank-1' },
};
const planned = { kind: 'planned', cell: { kind: 'measures' }, plan } as unknown as PlanOutcome;
const cutVersions = { M1: 1 } as unknown as StartFacts['cutVersions'];
const facts: StartFacts = { cls, window: 'BOY', planned, cutVersions };
const start = (over: Partial<StartSitting> = {}): StartSitting => ({
  attemptId,
  studentId: 7,
  mode: 'window',
  subSkillIds: null,
  now,
  facts,
  ...over,
});
const state = (over: Partial<StartState> = {}): StartState => ({ ...startSittingDecider.initialState(), ...over });
const refused = (reason: string) => (error: unknown) =>
  strictEqual(error instanceof SittingRefused && error.reason, reason);

describe('startSittingDecider', () => {
  it('starts the window’s sitting with the plan and the pins, in the student’s name', async () => {
    const [event] = await spec
      .givenState(state({ supersedesVoidId: 3 }))
      .when(start())
      .events();
    strictEqual(event?.eventId, deterministicEventId('sitting-started', attemptId));
    strictEqual(event?.type, SITTING_STARTED);
    const data = event!.data;
    strictEqual(data.supersedesVoidId, 3);
    strictEqual(data.window, 'BOY');
    strictEqual(data.startedBy, 7);
    strictEqual(data.pins.cutVersions, cutVersions);
    strictEqual(JSON.stringify(event?.metadata), JSON.stringify({ actorUserId: 7, organizationId: 'org_1' }));
  });

  it('refuses without a class, then without an open window', async () => {
    const noClass = { cls: null, window: null, planned: null, cutVersions: null };
    await spec
      .givenState(state())
      .when(start({ facts: noClass }))
      .thenThrows(refused('no_active_class'));
    const noWindow = { cls, window: null, planned: null, cutVersions: null };
    await spec
      .givenState(state())
      .when(start({ facts: noWindow }))
      .thenThrows(refused('no_open_window'));
  });

  it('resumes an open sitting (nothing to append); a done one is not sat again, a re-diagnostic needs one', async () => {
    await spec
      .givenState(state({ openAttemptId: 'open-1' }))
      .when(start())
      .thenNothing();
    await spec
      .givenState(state({ done: true }))
      .when(start())
      .thenThrows(refused('sitting_already_done'));
    await spec
      .givenState(state())
      .when(start({ mode: 're_diagnostic' }))
      .thenThrows(refused('no_finished_sitting'));
  });

  it('a skill cell’s re-diagnostic names sub-skills of the cell', async () => {
    const skills = {
      ...facts,
      planned: { ...planned, cell: { kind: 'skills', subSkillIds: ['ps-1', 'ps-2'] } } as unknown as PlanOutcome,
    };
    const redo = (subSkillIds: string[] | null) => start({ mode: 're_diagnostic', subSkillIds, facts: skills });
    await spec
      .givenState(state({ done: true }))
      .when(redo(null))
      .thenThrows(refused('sub_skills_required'));
    await spec
      .givenState(state({ done: true }))
      .when(redo(['ps-9']))
      .thenThrows(refused('sub_skill_not_in_cell'));
    const [event] = await spec
      .givenState(state({ done: true }))
      .when(redo(['ps-2']))
      .events();
    strictEqual(JSON.stringify(event?.data.subSkillIds), '["ps-2"]');
  });

  it('a cell not screened is refused; one without an operational form writes nothing', async () => {
    const notScreened = { ...facts, planned: { kind: 'not_screened', cell: { kind: 'unset' } } as PlanOutcome };
    await spec
      .givenState(state())
      .when(start({ facts: notScreened }))
      .thenThrows(refused('not_screened'));
    const noForm = { ...facts, planned: { kind: 'no_screening_form', cell: { kind: 'measures' } } as PlanOutcome };
    await spec
      .givenState(state())
      .when(start({ facts: noForm }))
      .thenNothing();
  });
});
