import { SessionStoreError } from './session-store-error.js';

/**
 * An `undone` update found a change already in the requested state: another process or host
 * undid (or reapplied) it first. The update is compare-and-set, so of two concurrent undos of
 * one change exactly one succeeds and the other gets this error (§8.4). Nothing was changed.
 */
export class UndoneConflictError extends SessionStoreError {
  readonly sessionId: string;
  readonly changeId: string;
  /** The stored state that the update found (the one it asked for). */
  readonly undone: boolean;

  constructor(sessionId: string, changeId: string, undone: boolean) {
    super(
      'undone_conflict',
      `change ${JSON.stringify(changeId)} of session ${JSON.stringify(sessionId)} is already ${undone ? 'undone' : 'applied (not undone)'}: ` +
        `someone else ${undone ? 'undid' : 'reapplied'} it first; reload the session's changes before trying again`,
    );
    this.name = 'UndoneConflictError';
    this.sessionId = sessionId;
    this.changeId = changeId;
    this.undone = undone;
  }

  static override isInstance(error: unknown): error is UndoneConflictError {
    return SessionStoreError.isInstance(error) && error.code === 'undone_conflict';
  }
}
