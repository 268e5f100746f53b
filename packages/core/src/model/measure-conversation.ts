import type { ModelMessage } from './model-message.js';

/** The size of a conversation as the model sees it. */
export interface ConversationSize {
  /** UTF-8 bytes of everything sent: texts, tool names and ids, and the arguments as JSON. */
  readonly bytes: number;
  /** `bytes / 4`, rounded up: the estimate behind the 32,000-byte result limit (§9: 8,000 tokens × 4 bytes). */
  readonly estimatedTokens: number;
}

/**
 * The conversation's size for a context budget (compaction decides from it). It measures
 * `ModelMessage`s, which have no artifacts, so artifacts never count (§8.1), however large.
 */
export function measureConversation(messages: readonly ModelMessage[]): ConversationSize {
  const encoder = new TextEncoder();
  let bytes = 0;
  const count = (text: string): void => {
    bytes += encoder.encode(text).length;
  };
  for (const message of messages) {
    count(message.role);
    switch (message.role) {
      case 'user':
        count(message.text);
        break;
      case 'assistant':
        count(message.text);
        for (const call of message.toolCalls) {
          count(call.id);
          count(call.toolId);
          count(typeof call.input === 'string' ? call.input : JSON.stringify(call.input));
        }
        break;
      case 'tool':
        count(message.toolCallId);
        count(message.toolId);
        count(message.text);
        break;
    }
  }
  return Object.freeze({ bytes, estimatedTokens: Math.ceil(bytes / 4) });
}
