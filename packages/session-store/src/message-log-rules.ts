import { InvalidRecordError } from './invalid-record-error.js';
import { MessageConflictError } from './message-conflict-error.js';
import type { PreparedMessage } from './prepared-message.js';

/**
 * What a store knows, inside its append transaction, about the ids a prepared message uses: the
 * calls it makes or answers and the change ids it stores. A SQL store fetches these rows first.
 */
export interface MessageLogLookup {
  /** The stored call with this id: its tool, the message making it and the one answering it. */
  call(toolCallId: string): { readonly toolId: string; readonly callSequence: number; readonly resultSequence: number | null } | undefined;
  /** The sequence of the message storing a file change with this id. */
  change(changeId: string): number | undefined;
}

/**
 * Applies the message log's rules to an append, once for every store: a message id repeated with
 * the same content is an idempotent retry (`true`: return the stored message); with other content
 * a conflict. Otherwise call ids must be new, an answered call must exist, match its tool and
 * have no result yet, and change ids must be new. Throws the rule's error; `false` means append.
 */
export function checkAppend(
  sessionId: string,
  prepared: PreparedMessage,
  existing: { readonly sequence: number; readonly role: string; readonly body: string } | undefined,
  lookup: MessageLogLookup,
): boolean {
  if (existing !== undefined) {
    if (existing.role !== prepared.role || existing.body !== prepared.body) throw MessageLogRules.messageIdTaken(sessionId, prepared.id, existing.sequence);
    return true;
  }
  for (const call of prepared.toolCalls) {
    const taken = lookup.call(call.id);
    if (taken !== undefined) throw MessageLogRules.toolCallIdTaken(sessionId, call.id, taken.callSequence);
  }
  const answered = prepared.answeredCall;
  if (answered !== null) {
    const call = lookup.call(answered.id);
    if (call === undefined) throw MessageLogRules.unknownToolCall(sessionId, answered.id);
    if (call.toolId !== answered.toolId) throw MessageLogRules.toolIdMismatch(sessionId, answered.id, call.toolId, answered.toolId);
    if (call.resultSequence !== null) throw MessageLogRules.toolResultExists(sessionId, answered.id, call.resultSequence);
  }
  for (const change of prepared.fileChanges) {
    const taken = lookup.change(change.changeId);
    if (taken !== undefined) throw MessageLogRules.changeIdTaken(sessionId, change.changeId, taken);
  }
  return false;
}

/**
 * The errors of the message log's rules, worded once for every store. A store enforces the rules
 * inside the append transaction and throws what these return.
 */
export const MessageLogRules = Object.freeze({
  checkAppend,

  /** The message id is taken by a message with other content. */
  messageIdTaken(sessionId: string, messageId: string, sequence: number): MessageConflictError {
    return new MessageConflictError(
      sessionId,
      'message_id',
      `message id ${JSON.stringify(messageId)} is already used by message ${sequence} of session ${JSON.stringify(sessionId)} with different content; ` +
        'use a new id for a new message (the same message with the same id is returned as stored)',
    );
  },

  /** An earlier assistant message already made a call with this id. */
  toolCallIdTaken(sessionId: string, toolCallId: string, sequence: number): MessageConflictError {
    return new MessageConflictError(
      sessionId,
      'tool_call_id',
      `tool call id ${JSON.stringify(toolCallId)} was already used by message ${sequence} of session ${JSON.stringify(sessionId)}; tool call ids are unique in a session`,
    );
  },

  /** The call already has its one final result (§8.3). */
  toolResultExists(sessionId: string, toolCallId: string, sequence: number): MessageConflictError {
    return new MessageConflictError(
      sessionId,
      'tool_result',
      `tool call ${JSON.stringify(toolCallId)} of session ${JSON.stringify(sessionId)} already has its result (message ${sequence}); a call gets exactly one result (§8.3)`,
    );
  },

  /** A stored file change already has this change id (§8.4). */
  changeIdTaken(sessionId: string, changeId: string, sequence: number): MessageConflictError {
    return new MessageConflictError(
      sessionId,
      'change_id',
      `change id ${JSON.stringify(changeId)} is already stored in message ${sequence} of session ${JSON.stringify(sessionId)}; change ids are unique in a session (§8.4)`,
    );
  },

  /** A tool message answers a call that no earlier assistant message made. */
  unknownToolCall(sessionId: string, toolCallId: string): InvalidRecordError {
    return new InvalidRecordError(
      `session ${JSON.stringify(sessionId)} has no assistant message with tool call ${JSON.stringify(toolCallId)}; ` +
        'append the assistant message that makes the call before its result',
    );
  },

  /** A tool message names another tool than the call it answers. */
  toolIdMismatch(sessionId: string, toolCallId: string, expected: string, got: string): InvalidRecordError {
    return new InvalidRecordError(
      `tool call ${JSON.stringify(toolCallId)} of session ${JSON.stringify(sessionId)} was made to ${JSON.stringify(expected)}, but its result names ${JSON.stringify(got)}`,
    );
  },
});
