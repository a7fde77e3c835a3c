/**
 * A problem that stops a service before it serves: a port in use, a data folder it cannot write,
 * a database left by a newer version. The entry point prints `message` as one plain line (no
 * stack trace) and exits 1; `variable` names the setting the operator can change, when one can.
 */
export class StartupError extends Error {
  override name = 'StartupError';
  readonly variable: string | undefined;

  constructor(message: string, options: { variable?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.variable = options.variable;
  }
}

export function isStartupError(error: unknown): error is StartupError {
  return error instanceof StartupError;
}
