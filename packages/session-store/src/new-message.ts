import type { ToolResult } from '@openwork/tools-contract';
import type { MessageMetadata, ToolCallRecord } from './stored-message.js';

/** What every appended message may carry. */
export interface NewMessageBase {
  /**
   * Your own id (1–200 characters). Appending the same id with the same content again returns
   * the stored message instead of adding a second one, so a retry after a lost connection is
   * safe. Reusing an id for different content is a `MessageConflictError`. A UUID when omitted.
   */
  readonly id?: string;
  readonly metadata?: MessageMetadata;
}

export interface NewUserMessage extends NewMessageBase {
  readonly role: 'user';
  readonly text: string;
}

export interface NewAssistantMessage extends NewMessageBase {
  readonly role: 'assistant';
  readonly text: string;
  /** Defaults to none. Every id must be new in the session. */
  readonly toolCalls?: readonly ToolCallRecord[];
}

/**
 * The result of a call made by an earlier assistant message of the session; each call gets
 * exactly one (§8.3). `toolId` must be the one of that call.
 */
export interface NewToolMessage extends NewMessageBase {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolId: string;
  readonly result: ToolResult;
}

/** Input of `appendMessage`. */
export type NewMessage = NewUserMessage | NewAssistantMessage | NewToolMessage;

/** Options of `loadMessages`. */
export interface LoadMessagesOptions {
  /** Only messages with a greater `sequence` (for paging or catching up). */
  readonly afterSequence?: number;
  /** At most this many messages (a positive integer); all when omitted. */
  readonly limit?: number;
}
