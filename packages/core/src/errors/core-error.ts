const MARKER = Symbol.for('openwork.core.error');

/** What went wrong, so a host can react without parsing messages. */
export type CoreErrorCode =
  /** A call to the runtime was malformed (a programmer error): the message says what to pass. */
  | 'invalid_argument'
  /** The session is running a turn, a tool call or an undo (§8.4 `SessionActive`). */
  | 'session_active'
  /** No session with that id exists in the store. */
  | 'session_not_found'
  /** The runtime was closed. */
  | 'runtime_closed';

/**
 * Base of every error `@openwork/core` throws. Tool failures are never thrown: they are
 * `ToolResult` values the model reads (§8.1). Identity goes through a `Symbol.for` marker, so
 * `isInstance` works across two copies of the package in one tree.
 */
export class CoreError extends Error {
  private readonly [MARKER] = true;
  readonly code: CoreErrorCode;

  constructor(code: CoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CoreError';
    this.code = code;
  }

  /** Whether `error` is any error of this package, from whichever copy of it. */
  static isInstance(error: unknown): error is CoreError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Whether `error` is a `CoreError` with `code`. */
export function hasCoreErrorCode<C extends CoreErrorCode>(error: unknown, code: C): error is CoreError & { readonly code: C } {
  return CoreError.isInstance(error) && error.code === code;
}
