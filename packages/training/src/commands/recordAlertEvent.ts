import { type CommandDeps, type Decider, handleCommand, withoutRead } from '@qiraa/command-kit';
import type { UnitOfWork } from '@qiraa/db';
import type { NewEvent } from '@qiraa/eventstore';
import { trainingCommands } from '../commandContext';
import type { TrainingAlertRaised, TrainingAlertResolved } from '../events/alertEvents';

/** An alert's raise or resolution, as a rule decided it (deterministic id: the alert, or its resolution). */
export type AlertRuleEvent = NewEvent<TrainingAlertRaised | TrainingAlertResolved>;

/**
 * The alert rules decide over a stay (the reactor's fold, `decideTrainingAlerts`; the support-review schedule,
 * `supportReviewAsOf`), not over the alert's stream, so what they decided is recorded as it is: the stream is not
 * read, the id makes it once.
 */
export const alertRuleEventDecider: Decider<AlertRuleEvent, AlertRuleEvent, null> = {
  initialState: () => null,
  evolve: (state) => state,
  decide: (event) => [event],
};

/**
 * Appends a rule's alert event to `streamId` with `trn_alerts` applied in the same unit of work (`uow`: the
 * reactor's batch; else its own). Expected version `any`: a re-delivered raise or resolution is a duplicate and
 * stores nothing; a resolution lands after an acknowledgement a teacher appended meanwhile. Whether it was stored.
 */
export async function recordAlertEvent(
  deps: CommandDeps,
  streamId: string,
  event: AlertRuleEvent,
  uow?: UnitOfWork,
): Promise<boolean> {
  const result = await handleCommand(deps, {
    context: trainingCommands,
    streamId,
    decider: alertRuleEventDecider,
    command: event,
    load: withoutRead(null),
    onDuplicate: 'done',
    ...(uow ? { uow } : {}),
  });
  return result.kind === 'appended';
}
