import type { UnitOfWork } from '@qiraa/db';
import type { AppendResult, RecordedEvent } from './types';

type Listener = (events: readonly RecordedEvent[]) => void;

/** The store's onAppended listeners, told about an append only once the events are committed. */
export function appendListeners() {
  const listeners: Listener[] = [];
  const tell = (result: AppendResult) => {
    if (result.kind !== 'appended') return;
    for (const listener of listeners) listener(result.events);
  };
  return {
    add: (listener: Listener) => void listeners.push(listener),
    /** At once, or after the unit of work the append joined has committed. */
    announce(result: AppendResult, uow?: UnitOfWork) {
      if (uow) uow.afterCommit(() => tell(result));
      else tell(result);
    },
  };
}
