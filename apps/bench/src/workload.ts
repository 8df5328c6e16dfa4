import { randomEventId } from '@qiraa/eventstore';

export const PROBE_EVENT_TYPE = 'FluencyProbeRecorded';

export interface ProbeEvent {
  streamId: string;
  eventId: string;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** A realistic single event for append `i`: one reading-fluency probe of one of `streams` students. */
export function probeEvent(i: number, streams: number): ProbeEvent {
  const student = i % streams;
  const organizationId = `org_${student % 10}`;
  return {
    streamId: `student-${student + 1}`,
    eventId: randomEventId(),
    type: PROBE_EVENT_TYPE,
    data: {
      studentId: student + 1,
      classId: `class_${student % 25}`,
      probeId: `orf-g2-${(i % 30) + 1}`,
      wordsRead: 74 + (i % 40),
      errors: i % 7,
      durationSeconds: 60,
      assessedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    },
    metadata: { actorUserId: 100 + (student % 20), organizationId, correlationId: randomEventId() },
  };
}
