import { defineSchedule } from '@qiraa/kernel';
import { verifyLog } from '../replay/verifyLog';

/**
 * The periodic checkpoint: a whole recomputation of the chain every night; when every hash holds it records
 * the running digest (es_verify_checkpoints), which every later run must meet again. A run that finds a
 * break records nothing and counts the breaks (`qiraa schedules status`; `qiraa events verify` names them).
 */
export const verifyLogSchedule = defineSchedule({
  name: 'auditing.verify-log',
  cadence: 'daily',
  description: 'the event log’s hash chain is recomputed; a clean run records a checkpoint of its digest',
  async run(deps, tick): Promise<Record<string, number>> {
    // The chain is a column of the log's table: nothing to recompute where the log is elsewhere (KurrentDB).
    if (!deps.store.logInDatabase) return { skipped: 1 };
    const report = await verifyLog(deps.store, { record: { at: tick.dueAt } });
    return { events: report.events, breaks: report.breaks.length, checkpoints: report.recorded ? 1 : 0 };
  },
});
