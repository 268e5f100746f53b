import type { ModelMessage } from './model-message.js';

/**
 * What one image of a tool result counts for: 1,600 tokens (× 4 bytes), about the most a provider
 * charges for an image after fitting it to its own size limit (Anthropic: width × height / 750,
 * at most about 1,600; OpenAI: up to about 1,100 at high detail). Its base64 length would count a
 * 5 MiB screenshot as 1.7 million tokens and trigger compaction at once.
 */
export const IMAGE_ESTIMATED_BYTES = 1600 * 4;

/** The size of a conversation as the model sees it. */
export interface ConversationSize {
  /** UTF-8 bytes of everything sent: texts, tool names and ids, the arguments as JSON, and `IMAGE_ESTIMATED_BYTES` per image. */
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
        bytes += (message.images?.length ?? 0) * IMAGE_ESTIMATED_BYTES;
        break;
    }
  }
  return Object.freeze({ bytes, estimatedTokens: Math.ceil(bytes / 4) });
}
