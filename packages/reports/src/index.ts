export { reportsContext } from './context';
export { SESSION_KINDS, type SessionKind } from './queries/sessionKinds';
