export { canonical, driftOf, REPLAY_FIELDS, type ReplayedDecision, type ReplayField } from './compareDecisions';
export { type DecisionReplayReport, type KeyReplay, replayDecisions } from './replayDecisions';
