export { applyContextInline, type CommandContext, defineCommandContext } from './commandContext';
export { type Decider, foldEvents } from './decider';
export {
  CommandConflictError,
  type CommandDeps,
  type CommandResult,
  type HandleCommandOptions,
  handleCommand,
  type LoadedState,
  type StateLoader,
  type StoredAs,
  withoutRead,
} from './handleCommand';
export { type StreamWrite, type WriteOptions, writeStreams } from './writeStreams';
