import { SessionStoreError } from './session-store-error.js';

/** No stored file-change artifact of the session has this change id (§8.4). Nothing was changed. */
export class ChangeNotFoundError extends SessionStoreError {
  readonly sessionId: string;
  readonly changeId: string;

  constructor(sessionId: string, changeId: string) {
    super(
      'change_not_found',
      `session ${JSON.stringify(sessionId)} has no file change ${JSON.stringify(changeId)}; list the session's changes to see which ids exist`,
    );
    this.name = 'ChangeNotFoundError';
    this.sessionId = sessionId;
    this.changeId = changeId;
  }

  static override isInstance(error: unknown): error is ChangeNotFoundError {
    return SessionStoreError.isInstance(error) && error.code === 'change_not_found';
  }
}
