import type { JsonSchema, JsonValue, ResultImageType } from '@openwork/tools-contract';
import type { LanguageModelRequest } from '../model/language-model.js';
import { argumentsObject } from './tool-call-arguments.js';

/** A base64 image block of the Anthropic Messages API (also allowed inside a `tool_result`). */
export interface AnthropicImageBlock {
  readonly type: 'image';
  readonly source: { readonly type: 'base64'; readonly media_type: ResultImageType; readonly data: string };
}

/** A content block of the Anthropic Messages API, as plain data. */
export type AnthropicContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: { readonly [key: string]: JsonValue } }
  | {
      readonly type: 'tool_result';
      readonly tool_use_id: string;
      /** The text alone, or — when the result has images — a text block followed by image blocks. */
      readonly content: string | readonly ({ readonly type: 'text'; readonly text: string } | AnthropicImageBlock)[];
      readonly is_error?: true;
    };

export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  readonly content: readonly AnthropicContentBlock[];
}

/** A tool of the Messages API (`tools[]`). */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
}

/** The parts of a `messages.create` request core fills in; add `model`, `max_tokens` and the rest. */
export interface AnthropicMessagesRequest {
  readonly system?: string;
  readonly messages: readonly AnthropicMessage[];
  readonly tools?: readonly AnthropicTool[];
}

/**
 * A turn's request in the Anthropic Messages shape: the instructions as `system`, an assistant's
 * calls as `tool_use` blocks, and the results as `tool_result` blocks (`is_error` when the call did
 * not succeed; a result's images as base64 `image` blocks after its text) in the user message that follows — consecutive results and user text share one user
 * message, since roles must alternate. Artifacts cannot be sent (§8.1).
 */
export function projectAnthropicMessagesRequest(request: LanguageModelRequest): AnthropicMessagesRequest {
  const messages: { role: 'user' | 'assistant'; content: AnthropicContentBlock[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: readonly AnthropicContentBlock[]): void => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else messages.push({ role, content: [...blocks] });
  };
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        append('user', [{ type: 'text', text: message.text }]);
        break;
      case 'assistant':
        append('assistant', [
          ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
          ...message.toolCalls.map((call) => ({ type: 'tool_use' as const, id: call.id, name: call.toolId, input: argumentsObject(call.input) })),
        ]);
        break;
      case 'tool':
        append('user', [
          {
            type: 'tool_result',
            tool_use_id: message.toolCallId,
            content:
              message.images === undefined || message.images.length === 0
                ? message.text
                : [
                    { type: 'text' as const, text: message.text },
                    ...message.images.map((image) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: image.mimeType, data: image.data } })),
                  ],
            ...(message.isError ? { is_error: true as const } : {}),
          },
        ]);
        break;
    }
  }
  const tools = request.tools.map((tool) => ({ name: tool.id, description: tool.description, input_schema: tool.inputSchema }));
  return {
    ...(request.instructions === undefined || request.instructions === '' ? {} : { system: request.instructions }),
    messages,
    ...(tools.length === 0 ? {} : { tools }),
  };
}
