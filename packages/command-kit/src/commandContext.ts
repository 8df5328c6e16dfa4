import type { UnitOfWork } from '@qiraa/db';
import type { RecordedEvent } from '@qiraa/eventstore';
import { applyInline, type Projection } from '@qiraa/projections';

/**
 * A bounded context's write side, declared once (`packages/<context>/src/commandContext.ts`): its name and the
 * read models every command of the context keeps up to date in its own transaction (read-your-writes). The
 * command handler applies them to what each append wrote, so no command calls a projection itself. The same
 * projections are also in the context's `defineContext({ projections })`, where the runner applies them again
 * (idempotently) and a rebuild finds them.
 */
export interface CommandContext {
  readonly name: string;
  readonly inline: readonly Projection[];
}

export function defineCommandContext(context: CommandContext): CommandContext {
  const names = new Set<string>();
  for (const p of context.inline) {
    if (names.has(p.name)) throw new Error(`context ${context.name} lists inline projection ${p.name} twice`);
    names.add(p.name);
  }
  return context;
}

/**
 * Applies the context's inline projections to an append's events inside its unit of work. Together on the one
 * connection: each projection's statements still run in their own order (its locks first, in the list's order,
 * advisoryLock.ts), but none waits for another's round trips.
 */
export async function applyContextInline(
  uow: UnitOfWork,
  context: CommandContext,
  events: readonly RecordedEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await Promise.all(context.inline.map((projection) => applyInline(uow, projection, events)));
}
