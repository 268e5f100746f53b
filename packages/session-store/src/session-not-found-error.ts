import { SessionStoreError } from './session-store-error.js';

/** No session with this id exists (never created, or deleted). */
export class SessionNotFoundError extends SessionStoreError {
  readonly sessionId: string;

  constructor(sessionId: string) {
    super('session_not_found', `session ${JSON.stringify(sessionId)} does not exist (it was never created or has been deleted)`);
    this.name = 'SessionNotFoundError';
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionNotFoundError {
    return SessionStoreError.isInstance(error) && error.code === 'session_not_found';
  }
}
