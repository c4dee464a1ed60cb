/** Bad input from the operator: unknown command, kind or option, a missing argument. Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The thing asked for does not exist (a job id). Exit code 2 as well: the input was wrong. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}
