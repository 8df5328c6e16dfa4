export {
  type CatalogKind,
  childGenderOf,
  type DispatchDeps,
  type DispatchInput,
  type DispatchLogger,
  type DispatchResult,
  dispatch,
  dispatchToClass,
  dispatchToStudent,
  type FanOutResult,
  type KindTemplates,
  lookupKind,
  renderKind,
  renderTemplate,
  type SourceEntity,
} from './commands/dispatch';
export { isDispatchRefusal } from './commands/dispatchRefusal';
export { type DismissResult, dismiss, type MarkReadResult, markAllRead, markRead } from './commands/inbox';
export { notificationsContext } from './context';
export * from './events';
export { notificationsInboxProjection } from './projections/inboxProjection';
export { INBOX_PAGE_DEFAULT, INBOX_PAGE_MAX, type NotificationView } from './queries/inbox';
export {
  NOTIFICATION_PAYLOAD_VIEWS,
  PARENT_HIDDEN_ENVELOPE,
  payloadView,
  RECIPIENT_PERSONAS,
  type RecipientPersona,
} from './queries/payloadViews';
export * from './schemas/notificationKinds';
export { SAMPLE_PAYLOADS } from './schemas/samplePayloads';
