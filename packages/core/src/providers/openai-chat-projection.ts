import type { JsonSchema } from '@openwork/tools-contract';
import type { LanguageModelRequest } from '../model/language-model.js';
import { argumentsText } from './tool-call-arguments.js';

/** A message of the OpenAI Chat Completions API (`messages[]`), as plain data. */
export type OpenAIChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly OpenAIChatToolCall[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

export interface OpenAIChatToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A tool of the Chat Completions API (`tools[]`). */
export interface OpenAIChatTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: JsonSchema };
}

/** The parts of a `chat.completions.create` request core fills in; add `model` and the rest. */
export interface OpenAIChatRequest {
  readonly messages: readonly OpenAIChatMessage[];
  readonly tools?: readonly OpenAIChatTool[];
}

/**
 * A turn's request in the OpenAI Chat Completions shape: the instructions as a `system` message,
 * assistant tool calls as `tool_calls` with JSON-text `arguments`, each result as a `tool` message
 * with its text. Chat Completions tool messages take text only, so a result's images are replaced
 * by a note that says they could not be shown (`chatImageNote`). Artifacts are not in a
 * `LanguageModelRequest`, so they cannot be sent (§8.1).
 */
export function projectOpenAIChatRequest(request: LanguageModelRequest): OpenAIChatRequest {
  const messages: OpenAIChatMessage[] = [];
  if (request.instructions !== undefined && request.instructions !== '') messages.push({ role: 'system', content: request.instructions });
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        messages.push({ role: 'user', content: message.text });
        break;
      case 'assistant':
        messages.push({
          role: 'assistant',
          content: message.text === '' && message.toolCalls.length > 0 ? null : message.text,
          ...(message.toolCalls.length === 0
            ? {}
            : {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.toolId, arguments: argumentsText(call.input) },
                })),
              }),
        });
        break;
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.images === undefined || message.images.length === 0 ? message.text : `${message.text}\n${chatImageNote(message.images.length)}` });
        break;
    }
  }
  const tools = request.tools.map((tool) => ({
    type: 'function' as const,
    function: { name: tool.id, description: tool.description, parameters: tool.inputSchema },
  }));
  return tools.length === 0 ? { messages } : { messages, tools };
}

/** The line that stands for a result's images in a Chat Completions tool message. */
function chatImageNote(count: number): string {
  return `[${count === 1 ? '1 image' : `${count} images`} of this result not shown: tool messages of this model API carry text only; the text above describes ${count === 1 ? 'it' : 'them'}.]`;
}
