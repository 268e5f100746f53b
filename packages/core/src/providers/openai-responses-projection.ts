import type { JsonSchema } from '@openwork/tools-contract';
import type { LanguageModelRequest } from '../model/language-model.js';
import { argumentsText } from './tool-call-arguments.js';

/** An input item of the OpenAI Responses API (`input[]`), as plain data. */
export type OpenAIResponsesInputItem =
  | { readonly type: 'message'; readonly role: 'user'; readonly content: readonly { readonly type: 'input_text'; readonly text: string }[] }
  | { readonly type: 'message'; readonly role: 'assistant'; readonly content: readonly { readonly type: 'output_text'; readonly text: string }[] }
  | { readonly type: 'function_call'; readonly call_id: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'function_call_output'; readonly call_id: string; readonly output: string | readonly OpenAIResponsesOutputContent[] };

/** A part of a `function_call_output` that has images: its text, then each image as a data URL. */
export type OpenAIResponsesOutputContent =
  | { readonly type: 'input_text'; readonly text: string }
  | { readonly type: 'input_image'; readonly image_url: string; readonly detail: 'auto' };

/** A function tool of the Responses API (`tools[]`). */
export interface OpenAIResponsesTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** Our schemas allow optional fields, which strict mode does not. */
  readonly strict: false;
}

/** The parts of a `responses.create` request core fills in; add `model` and the rest. */
export interface OpenAIResponsesRequest {
  readonly instructions?: string;
  readonly input: readonly OpenAIResponsesInputItem[];
  readonly tools?: readonly OpenAIResponsesTool[];
}

/**
 * A turn's request in the OpenAI Responses shape: the instructions as `instructions`, text as
 * `message` items, each call as a `function_call` item followed later by its
 * `function_call_output` with the result's text — or, when it has images, an `input_text` part and
 * one `input_image` part (a base64 data URL) per image. Artifacts cannot be sent (§8.1).
 */
export function projectOpenAIResponsesRequest(request: LanguageModelRequest): OpenAIResponsesRequest {
  const input: OpenAIResponsesInputItem[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: message.text }] });
        break;
      case 'assistant':
        if (message.text !== '') input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: message.text }] });
        for (const call of message.toolCalls) {
          input.push({ type: 'function_call', call_id: call.id, name: call.toolId, arguments: argumentsText(call.input) });
        }
        break;
      case 'tool':
        input.push({
          type: 'function_call_output',
          call_id: message.toolCallId,
          output:
            message.images === undefined || message.images.length === 0
              ? message.text
              : [
                  { type: 'input_text' as const, text: message.text },
                  ...message.images.map((image) => ({ type: 'input_image' as const, image_url: `data:${image.mimeType};base64,${image.data}`, detail: 'auto' as const })),
                ],
        });
        break;
    }
  }
  const tools = request.tools.map((tool) => ({
    type: 'function' as const,
    name: tool.id,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false as const,
  }));
  return {
    ...(request.instructions === undefined || request.instructions === '' ? {} : { instructions: request.instructions }),
    input,
    ...(tools.length === 0 ? {} : { tools }),
  };
}
