import { SessionStoreError } from './session-store-error.js';

/** `createSession` was given an id that another session already has. Nothing was changed. */
export class SessionExistsError extends SessionStoreError {
  readonly sessionId: string;

  constructor(sessionId: string) {
    super('session_exists', `a session with id ${JSON.stringify(sessionId)} already exists; pick another id or omit it to get a generated one`);
    this.name = 'SessionExistsError';
    this.sessionId = sessionId;
  }

  static override isInstance(error: unknown): error is SessionExistsError {
    return SessionStoreError.isInstance(error) && error.code === 'session_exists';
  }
}
