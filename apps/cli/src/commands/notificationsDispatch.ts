import { readFile } from 'node:fs/promises';
import { ApiError } from '@qiraa/http-kit';
import { LanguageSafetyBlockedError, LanguageSafetyUnavailableError } from '@qiraa/language-safety';
import { dispatch } from '@qiraa/notifications';
import { CliError } from '../cliError';
import { withRuntime } from '../withRuntime';

export interface NotificationsDispatchOptions {
  kind: string;
  recipient: string;
  payload: string;
  sourceType?: string;
  sourceId?: string;
}

/**
 * `qiraa notifications dispatch --kind K --recipient USER_ID --payload file.json`: raises one notification
 * through the in-process dispatch (the same six steps as a producer). Prints the outcome as JSON (exit 0);
 * a refusal (unknown kind, bad payload, student recipient, language-safety block) is exit 1 on stderr.
 */
export async function notificationsDispatchCommand(options: NotificationsDispatchOptions): Promise<void> {
  const recipientUserId = Number(options.recipient);
  if (!Number.isSafeInteger(recipientUserId) || recipientUserId < 1) {
    throw new CliError(`--recipient must be a user id, not "${options.recipient}"`, 2);
  }
  if ((options.sourceType === undefined) !== (options.sourceId === undefined)) {
    throw new CliError('--source-type and --source-id go together', 2);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await readFile(options.payload, 'utf8'));
  } catch (error) {
    throw new CliError(`cannot read the payload JSON ${options.payload}: ${(error as Error).message}`);
  }
  const result = await withRuntime(async ({ sql, store }) => {
    // dispatch skips an unknown recipient (a producer's user may be deleted meanwhile); an operator typed it.
    const [recipient] = await sql`select 1 from users where id = ${recipientUserId}`;
    if (!recipient) throw new CliError(`--recipient ${recipientUserId}: no user has that id (nothing dispatched)`);
    try {
      return await dispatch(
        { sql, store, logger: { error: (object, message) => console.error(message, JSON.stringify(object)) } },
        {
          recipientUserId,
          kind: options.kind,
          payload,
          ...(options.sourceType && options.sourceId
            ? { sourceEntity: { sourceEntityType: options.sourceType, sourceEntityId: options.sourceId } }
            : {}),
        },
      );
    } catch (error) {
      if (error instanceof ApiError) {
        const details = (error.details ?? []).map((d) => `\n  ${d.field}: ${d.issue}`).join('');
        throw new CliError(`${error.code}${error.reason ? ` (${error.reason})` : ''}: ${error.message}${details}`);
      }
      if (error instanceof LanguageSafetyBlockedError || error instanceof LanguageSafetyUnavailableError) {
        throw new CliError(`${error.code}: ${error.message}`);
      }
      throw error;
    }
  });
  console.log(JSON.stringify(result));
}
