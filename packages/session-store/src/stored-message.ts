import type { JsonValue, ToolResult } from '@openwork/tools-contract';

/** A tool call the model made in an assistant message. */
export interface ToolCallRecord {
  /** The tool call id; unique within the session. File changes use it as their change id (§8.4). */
  readonly id: string;
  /** The tool the model asked for (it may not exist: that call gets a `tool_not_found` result). */
  readonly toolId: string;
  /** The arguments as the model sent them. */
  readonly input: JsonValue;
}

/** Free-form data a host keeps with a message (token counts, provider ids…), a JSON object. */
export type MessageMetadata = { readonly [key: string]: JsonValue };

/** What every stored message has. */
export interface StoredMessageBase {
  readonly sessionId: string;
  /** Unique within the session; the one given on append, or a generated UUID. */
  readonly id: string;
  /** Position in the session: 1, 2, 3, … without gaps, in the order the appends committed. */
  readonly sequence: number;
  /** ISO 8601 UTC with milliseconds. */
  readonly createdAt: string;
  readonly metadata?: MessageMetadata;
}

/** What the user said. */
export interface StoredUserMessage extends StoredMessageBase {
  readonly role: 'user';
  readonly text: string;
}

/** What the model answered, with the tool calls it made. */
export interface StoredAssistantMessage extends StoredMessageBase {
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly ToolCallRecord[];
}

/**
 * The one final result of a tool call (§8.3), with its artifacts inside (§8.4: artifacts are
 * stored with the tool message). A `file_change` artifact's `undone` is the current state.
 */
export interface StoredToolMessage extends StoredMessageBase {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolId: string;
  readonly result: ToolResult;
}

/** A stored message of any role. Plain, frozen, JSON-serialisable data. */
export type StoredMessage = StoredUserMessage | StoredAssistantMessage | StoredToolMessage;

/** The roles of a message. */
export type MessageRole = StoredMessage['role'];
