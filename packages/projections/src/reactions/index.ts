export { bullmqReactor, REACTION_QUEUE, type ReactionWorker, startReactionWorker } from './bullmqReactor';
export { inProcessReactor } from './inProcessReactor';
export {
  DEFAULT_RETRY_POLICY,
  defineReaction,
  findReaction,
  type Reaction,
  type ReactionContext,
  type RetryPolicy,
  reactionsFor,
  UnknownReactionError,
} from './reaction';
export { type ReactionStatus, reactionStatus } from './reactionStatus';
export { listParked, type ParkedEvent, parkedCounts } from './reactionStore';
export { catchUpReactions, type Reactor, type ReactorOptions } from './reactor';
export { type RetriedEvent, retryParked } from './retryParked';
export { type ReactionRunResult, runReaction } from './runReaction';
