// Small helpers every layer uses for failures: a thrown value in words, and the compile-time check that a switch
// over a union handles every member (a new event type then fails the typecheck instead of being dropped silently).

/** The message of anything thrown (errors, strings, odd values), never "[object Object]". */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  try {
    return JSON.stringify(err) ?? String(err);
  } catch {
    return String(err);
  }
}

/** For the default branch of an exhaustive switch: does not compile while a member is unhandled. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
