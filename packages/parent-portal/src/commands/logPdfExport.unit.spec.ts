import { AUDIT_RECORDED } from '@qiraa/audit';
import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { describe, it } from 'vitest';
import { EXPORT_PDF, logPdfExportDecider } from './logPdfExport';

describe('logging a PDF export (decider)', () => {
  it('every export is one audit entry naming the teacher, the child and the document', async () => {
    const command = {
      eventId: 'e-1',
      organizationId: 'org-a',
      actorUserId: 40,
      studentId: 7,
      occurredAt: '2026-11-28T09:00:00.000Z',
    };
    await DeciderSpecification.for(logPdfExportDecider)
      .givenState(null)
      .when(command)
      .thenEvents([
        {
          eventId: 'e-1',
          type: AUDIT_RECORDED,
          data: {
            eventType: EXPORT_PDF,
            organizationId: 'org-a',
            actorUserId: 40,
            targetStudentId: 7,
            detail: { document: 'parent_growth_report' },
            occurredAt: '2026-11-28T09:00:00.000Z',
          },
          metadata: { actorUserId: 40, organizationId: 'org-a' },
        },
      ]);
  });
});
