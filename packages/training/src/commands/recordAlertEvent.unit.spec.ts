import { DeciderSpecification } from '@qiraa/command-kit/testing';
import { describe, it } from 'vitest';
import { TRAINING_ALERT_RESOLVED } from '../events/alertEvents';
import { alertRuleEventDecider } from './recordAlertEvent';

describe('recording an alert rule’s event (decider)', () => {
  it('records what the rule decided as it is, its deterministic id with it', async () => {
    const resolved = {
      eventId: 'resolved-1',
      type: TRAINING_ALERT_RESOLVED,
      data: { alertId: 'alert-1' },
      metadata: { organizationId: 'org-a' },
    } as never;
    await DeciderSpecification.for(alertRuleEventDecider).givenState(null).when(resolved).thenEvents([resolved]);
  });
});
