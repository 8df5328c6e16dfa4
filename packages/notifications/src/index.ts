export { type DismissResult, dismiss, type MarkReadResult, markAllRead, markRead } from './commands/inbox';
export { notificationsContext } from './context';
export {
  type CatalogKind,
  type DispatchDeps,
  type DispatchInput,
  type DispatchLogger,
  type DispatchResult,
  dispatch,
  dispatchToClass,
  dispatchToStudent,
  type FanOutResult,
  lookupKind,
  renderTemplate,
  type SourceEntity,
} from './dispatch';
export * from './events';
export * from './kinds';
export { notificationsInboxProjection } from './projections/inboxProjection';
export { INBOX_PAGE_DEFAULT, INBOX_PAGE_MAX, type NotificationView } from './queries/inbox';
export { SAMPLE_PAYLOADS } from './samplePayloads';
