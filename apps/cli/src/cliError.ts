/** An error the CLI reports as one line on stderr, with a shell exit code (2 usage, 1 failure). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
