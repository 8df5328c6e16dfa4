import type { SectionKey } from '@qiraa/content';
import type { SittingStarted, StopReason } from '.';

/** Why a sitting was opened: the window's screening, or a re-sit after a finished one (docs/assessment-sittings.md). */
export type SittingMode = 'window' | 're_diagnostic';

/** One question of a sitting, in served order. Pattern and sub-skill stay server side (item review only). */
export interface PlannedQuestion {
  itemId: string;
  itemVersion: number;
  measureCode: string;
  sectionKey: SectionKey;
  formId: string;
  formPosition: number;
  passageId: string | null;
  itemPattern: string;
  subSkillId: string;
  breakBefore: boolean;
}

export interface SittingSection {
  key: SectionKey;
  total: number;
}

/** The cut-table versions in force when the sitting started: the organization's newest, then the global one. */
export interface CutVersionPins {
  organization: string | null;
  global: string | null;
}

export interface SittingPins {
  itemBankPinId: string | null;
  forms: { id: string; externalId: string; version: number }[];
  cutVersions: CutVersionPins;
  catalogVersion: string;
  cell: { source: string | null; kind: string; measures: string[]; subSkillIds: string[] };
}

/** `SittingStarted` of a digital sitting: the attempt header plus its mode, plan and pins. */
export interface DigitalSittingStarted extends SittingStarted {
  mode: SittingMode;
  /** Digital measures of the plan, in cell order. */
  measures: string[];
  plan: PlannedQuestion[];
  sections: SittingSection[];
  pins: SittingPins;
  /** The sub-skills a re-diagnostic of a skill cell re-sits (null otherwise). */
  subSkillIds: string[] | null;
}

export interface SittingAnswerRecorded {
  attemptId: string;
  /** 0-based index in the plan. */
  position: number;
  itemId: string;
  measureCode: string;
  /** The option key the child chose. */
  answer: string;
  /** Scored by the server against the item's correct option. */
  correct: boolean;
  at: string;
}

/** A sitting as the commands and reads see it, folded from its stream or its `asm_sittings` row. */
export interface SittingFold {
  attemptId: string;
  started: DigitalSittingStarted;
  /** Answers by plan position. */
  answers: Map<number, SittingAnswerRecorded>;
  status: 'in_progress' | 'done' | 'stopped';
  endReason: 'completed' | StopReason | null;
  endedAt: string | null;
  voided: boolean;
  streamVersion: bigint;
}

/** The refusal reasons of the sitting routes (409 unless noted; docs/assessment-sittings.md). */
export const SITTING_REFUSALS = [
  'no_active_class',
  'no_open_window',
  'not_screened',
  'sitting_already_done',
  'no_finished_sitting',
  'sub_skills_required',
  'sub_skill_not_in_cell',
  'not_the_served_item',
  'already_answered',
  'not_an_option',
  'sitting_completed',
  'sitting_stopped',
  'voided',
  'window_closed',
  'concurrent_answer',
] as const;
export type SittingRefusal = (typeof SITTING_REFUSALS)[number];
