const MARKER = Symbol.for('openwork.session-store.error');

/**
 * What went wrong, the same for every store, so that core can react without knowing which
 * store it talks to (architecture §4: core depends on the interface only).
 */
export type SessionStoreErrorCode =
  | 'invalid_record'
  | 'session_not_found'
  | 'session_exists'
  | 'message_conflict'
  | 'change_not_found'
  | 'agent_run_not_found'
  | 'undone_conflict'
  | 'store_unavailable'
  | 'store_corrupt'
  | 'incompatible_schema'
  | 'store_closed';

/**
 * Base class of every error a `SessionStore` throws. Identity goes through a registered symbol
 * instead of `instanceof`, so that it survives two copies of this package in one tree (a store
 * built against one copy, core against another).
 */
export class SessionStoreError extends Error {
  private readonly [MARKER] = true;
  readonly code: SessionStoreErrorCode;

  constructor(code: SessionStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SessionStoreError';
    this.code = code;
  }

  /** Whether `error` is any error of this package, from whichever copy of it. */
  static isInstance(error: unknown): error is SessionStoreError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Whether `error` is a `SessionStoreError` with `code` (from whichever copy of the package). */
export function hasSessionStoreErrorCode<C extends SessionStoreErrorCode>(
  error: unknown,
  code: C,
): error is SessionStoreError & { readonly code: C } {
  return SessionStoreError.isInstance(error) && error.code === code;
}
