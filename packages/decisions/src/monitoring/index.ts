export { decideMonitoring, trendMasteryOf } from './decideMonitoring';
export {
  MONITORING_ALERT_CLOSED,
  MONITORING_ALERT_ESCALATED,
  MONITORING_EVENT_TYPES,
  type MonitoringAlertChanged,
  REGRESSION_ALERT_RAISED,
  TREND_ALERT_RAISED,
  TREND_DECIDED,
  type TrendDecided,
} from './monitoringEvents';
export { monitoringOf, openAcuteRegressionsOf } from './monitoringOf';
export { monitoringProjection } from './monitoringProjection';
export { MonitoringResponse } from './monitoringSchemas';
export { alertIdOf, trendDecisionIdOf } from './monitoringStep';
export {
  ALERT_KINDS,
  ALERT_STATUSES,
  type AlertKind,
  MONITORING_HOLD_REASONS,
  type MonitoringHoldReason,
  TREND_TOKENS,
  type TrendToken,
} from './monitoringTypes';
