import type { JsonValue, ToolId, ToolResultImage } from '@openwork/tools-contract';

/**
 * A message as the model sees it: text and tool calls only. Tool results carry their text, their
 * images (image parts) and whether they failed; artifacts are not part of this type at all, so they cannot reach a
 * provider (§8.1: "Artifact 不进模型上下文，也不计入 Token 预算").
 */
export type ModelMessage = ModelUserMessage | ModelAssistantMessage | ModelToolMessage;

export interface ModelUserMessage {
  readonly role: 'user';
  readonly text: string;
}

export interface ModelAssistantMessage {
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly ModelToolCall[];
}

/** A call the model made: its id, the tool, and the arguments as it sent them. */
export interface ModelToolCall {
  readonly id: string;
  readonly toolId: ToolId;
  /** The arguments: a JSON object, or the raw text when the model sent something that is not JSON. */
  readonly input: JsonValue;
}

/** The answer to one call: the model-visible text and images of its `ToolResult`. */
export interface ModelToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolId: ToolId;
  readonly text: string;
  /** The result's image parts, in order (image parts); absent when it has none, as for every failure. */
  readonly images?: readonly ToolResultImage[];
  /** `true` unless the call succeeded (Anthropic's `is_error`). */
  readonly isError: boolean;
}
