/**
 * A start that cannot go on for a reason the operator fixes outside the gateway: a port in
 * use, a store that does not answer, a data file it must not touch. The message names the
 * config key to change (or what to do), and the command line prints it as one line, without a
 * stack trace, then exits 1. `cause` keeps the underlying error for a debugger.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';

  /** True for a {@link StartupError}, from any copy of this module. */
  static is(error: unknown): error is StartupError {
    return error instanceof Error && error.name === 'StartupError';
  }
}
