/**
 * A start-up failure the operator fixes by changing a setting (a variable, a folder's mode, a port). The
 * message is one line that names the setting and the fix; it never carries a credential, so apps print it
 * as it is instead of a stack trace.
 */
export class SetupError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'SetupError';
  }
}
