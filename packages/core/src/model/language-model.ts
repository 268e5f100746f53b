import type { MessageMetadata } from '@openwork/session-store';
import type { ToolDefinition } from '@openwork/tools-contract';
import type { ModelMessage } from './model-message.js';

/**
 * What a turn asks the model (architecture §4): the instructions, the conversation so far as the
 * model sees it (no artifacts, §8.1) and the tools it may call, in the toolset's order (§3). The
 * `projectOpenAIChat…`, `projectOpenAIResponses…` and `projectAnthropicMessages…` functions turn
 * it into the request shape of a provider's SDK.
 */
export interface LanguageModelRequest {
  readonly sessionId: string;
  /** The system prompt for this turn, if the host gave one. */
  readonly instructions?: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolDefinition[];
}

/** One piece of the model's streamed answer. */
export type LanguageModelStreamPart =
  /** A piece of text, in order. */
  | { readonly type: 'text'; readonly text: string }
  /**
   * A complete tool call. `input` is the arguments as the provider gave them: JSON text (OpenAI)
   * or an already parsed object (Anthropic). Calls run in the order they arrive, one at a time.
   */
  | { readonly type: 'tool_call'; readonly id: string; readonly toolId: string; readonly input: unknown }
  /** Optional, last: data to keep with the assistant message (token counts, the provider's ids). */
  | { readonly type: 'finish'; readonly metadata?: MessageMetadata };

/**
 * A model (architecture §4): messages and tool definitions in, streamed text and tool calls out.
 * Core writes no HTTP client; a host implements this over the SDK it already uses. `signal` is the
 * turn's: stop streaming when it aborts. Throwing ends the turn as `failed` with the error's
 * message (or `cancelled`, when the signal was aborted).
 */
export interface LanguageModel {
  stream(request: LanguageModelRequest, options: { readonly signal: AbortSignal }): AsyncIterable<LanguageModelStreamPart>;
}
