import type { StoredMessage } from '@openwork/session-store';
import { ToolResult } from '@openwork/tools-contract';
import type { ModelMessage } from './model-message.js';

/**
 * The model's view of stored messages (§8.1): user and assistant text, tool calls, and each tool
 * result's text and images. Artifacts, metadata, ids and timestamps are left out.
 */
export function toModelMessages(messages: readonly StoredMessage[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'user':
        return { role: 'user', text: message.text };
      case 'assistant':
        return {
          role: 'assistant',
          text: message.text,
          toolCalls: message.toolCalls.map((call) => ({ id: call.id, toolId: call.toolId, input: call.input })),
        };
      case 'tool': {
        const images = ToolResult.images(message.result);
        return {
          role: 'tool',
          toolCallId: message.toolCallId,
          toolId: message.toolId,
          text: ToolResult.text(message.result),
          ...(images.length === 0 ? {} : { images }),
          isError: message.result.status !== 'succeeded',
        };
      }
    }
  });
}
