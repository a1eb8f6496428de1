/**
 * A run that could not start, in words a user can act on: `config` (a backend that cannot be built, a bad option:
 * the CLI's exit code 1), `environment` (git missing, a folder that cannot be copied, a disk that cannot be
 * written: exit code 2) or `cancelled` while it was being set up (exit code 4). Nothing was spent and nothing is
 * left behind.
 */
export class SessionSetupError extends Error {
  constructor(
    readonly kind: 'config' | 'environment' | 'cancelled',
    message: string,
  ) {
    super(message);
    this.name = 'SessionSetupError';
  }
}
