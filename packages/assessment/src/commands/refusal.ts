import { ApiError } from '@qiraa/http-kit';
import type { SittingRefusal } from '../events/sittingTypes';

const STATUS: Record<SittingRefusal, 409 | 422> = {
  no_active_class: 409,
  no_open_window: 409,
  not_screened: 409,
  sitting_already_done: 409,
  no_finished_sitting: 409,
  sub_skills_required: 422,
  sub_skill_not_in_cell: 422,
  not_the_served_item: 409,
  already_answered: 409,
  not_an_option: 422,
  sitting_completed: 409,
  sitting_stopped: 409,
  voided: 409,
  window_closed: 409,
  concurrent_answer: 409,
};

const MESSAGE: Record<SittingRefusal, string> = {
  no_active_class: 'the student is not enrolled in an active class',
  no_open_window: 'no screening window of the class is open today',
  not_screened: 'the diagnostic blueprint has no digital screening for this grade and window',
  sitting_already_done: 'the student already finished the sitting of this window (a re-diagnostic re-sits it)',
  no_finished_sitting: 'a re-diagnostic needs a finished sitting of this window',
  sub_skills_required: 'a skill cell re-diagnostic needs subSkillIds',
  sub_skill_not_in_cell: 'a sub-skill is not in the diagnostic blueprint cell',
  not_the_served_item: 'the answer is not for the question served now',
  already_answered: 'the question was already answered with another option',
  not_an_option: 'the answer is not an option of the question',
  sitting_completed: 'the sitting is complete',
  sitting_stopped: 'the sitting was stopped',
  voided: 'the sitting was voided',
  window_closed: 'the screening window of the sitting has closed',
  concurrent_answer: 'another answer was recorded at the same time; resume and try again',
};

/** The ApiError of a refusal: 409 CONFLICT or 422 VALIDATION_ERROR with the `reason`. */
export function sittingRefusal(reason: SittingRefusal): ApiError {
  const status = STATUS[reason];
  return new ApiError(status, status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR', MESSAGE[reason], { reason });
}

/** A command's refusal, answered by the route (the command commits what it must first, e.g. a window close). */
export class SittingRefused extends Error {
  constructor(readonly reason: SittingRefusal) {
    super(reason);
  }
}
