import { StoreUnavailableError } from "../runtime/errors.js";

/** The message of any thrown value, for error texts. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code)
      ? `${error.message} (${code})`
      : error.message;
  }
  return String(error);
}

/**
 * Wraps a failure of the database in `StoreUnavailableError` naming the store, so that callers fail closed.
 * A `StoreUnavailableError` passes through unchanged.
 */
export function toStoreError(store: string, what: string, error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  return new StoreUnavailableError(store, `${what} failed: ${describeError(error)}`, { cause: error });
}

/** The error for a database whose schema a newer toolgate wrote. */
export function schemaTooNewError(store: string, component: string, found: number, known: number) {
  return new StoreUnavailableError(
    store,
    `the ${component} schema is at version ${found}, newer than this toolgate knows (${known}); ` +
      "upgrade toolgate, or point it at another database",
  );
}
