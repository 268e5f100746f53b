import { SessionStoreError } from './session-store-error.js';

/**
 * Which rule of the message log an append would break:
 * - `message_id`: the id is taken by a different message (the same message again is not a conflict);
 * - `tool_call_id`: an earlier assistant message already made a call with this id;
 * - `tool_result`: the call already has its one final result (§8.3);
 * - `change_id`: a stored file change already has this change id (§8.4).
 */
export type MessageConflictReason = 'message_id' | 'tool_call_id' | 'tool_result' | 'change_id';

/**
 * An append that would break the session's log, typically because another writer (process or
 * host) got there first. Nothing was written. Reload the session before deciding what to do.
 */
export class MessageConflictError extends SessionStoreError {
  readonly sessionId: string;
  readonly reason: MessageConflictReason;

  constructor(sessionId: string, reason: MessageConflictReason, message: string) {
    super('message_conflict', message);
    this.name = 'MessageConflictError';
    this.sessionId = sessionId;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is MessageConflictError {
    return SessionStoreError.isInstance(error) && error.code === 'message_conflict';
  }
}
