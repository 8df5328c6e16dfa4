import { MigrationError, SetupError, withoutCredentials } from '@qiraa/db';

/**
 * One line for an error that stops a process: a SetupError's own message (it names the setting and the fix),
 * otherwise the error's message without credentials. Never empty, never "undefined": some libraries reject with
 * a bare string or with nothing at all.
 */
export function failureLine(error: unknown): string {
  if (error instanceof SetupError) return error.message;
  if (error instanceof MigrationError) return `migrations: ${withoutCredentials(error.message)}`;
  const text =
    error instanceof Error
      ? error.message || (error.name === 'Error' ? '' : error.name)
      : typeof error === 'string'
        ? error
        : error === undefined || error === null
          ? ''
          : String(error);
  const line = withoutCredentials(text.trim()).split('\n')[0]!;
  return line || 'failed without saying why (set LOG_LEVEL=debug to see the embedded PostgreSQL log)';
}
