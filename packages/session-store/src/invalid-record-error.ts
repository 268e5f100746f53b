import { SessionStoreError } from './session-store-error.js';

/**
 * A session or message given to the store is malformed (wrong type, missing field, a tool result
 * for a call no assistant message made…). Nothing was written; the message says what to fix.
 */
export class InvalidRecordError extends SessionStoreError {
  constructor(message: string) {
    super('invalid_record', message);
    this.name = 'InvalidRecordError';
  }

  static override isInstance(error: unknown): error is InvalidRecordError {
    return SessionStoreError.isInstance(error) && error.code === 'invalid_record';
  }
}
