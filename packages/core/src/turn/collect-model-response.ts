import type { MessageMetadata } from '@openwork/session-store';
import type { LanguageModel, LanguageModelRequest } from '../model/language-model.js';
import { ABORTED, untilAborted } from '../shared/until-aborted.js';

/** A tool call as streamed, before core gives it a recordable id. */
export interface StreamedToolCall {
  readonly id: string;
  readonly toolId: string;
  readonly input: unknown;
}

/** What one model request produced. */
export interface ModelResponse {
  readonly outcome: 'complete' | 'cancelled' | 'failed';
  readonly text: string;
  readonly toolCalls: readonly StreamedToolCall[];
  readonly metadata?: MessageMetadata;
  /** Why a `failed` response failed. */
  readonly error?: string;
}

/**
 * Streams one answer of `model`: text pieces go to `onText` as they come, tool calls are collected
 * in order. The turn's signal cancels it even when the model ignores the signal: the next piece
 * is not waited for. A throw is `failed` (or `cancelled` once the signal has aborted).
 */
export async function collectModelResponse(
  model: LanguageModel,
  request: LanguageModelRequest,
  signal: AbortSignal,
  onText: (text: string) => void,
): Promise<ModelResponse> {
  let text = '';
  const toolCalls: StreamedToolCall[] = [];
  let metadata: MessageMetadata | undefined;
  const partial = (outcome: ModelResponse['outcome'], error?: string): ModelResponse => ({
    outcome,
    text,
    toolCalls,
    ...(metadata === undefined ? {} : { metadata }),
    ...(error === undefined ? {} : { error }),
  });
  let iterator: AsyncIterator<unknown> | undefined;
  try {
    iterator = model.stream(request, { signal })[Symbol.asyncIterator]();
    for (;;) {
      const next = await untilAborted(iterator.next(), signal);
      if (next.done === true) break;
      const part = next.value as { type?: unknown; text?: unknown; id?: unknown; toolId?: unknown; input?: unknown; metadata?: unknown };
      if (part?.type === 'text' && typeof part.text === 'string') {
        text += part.text;
        if (part.text !== '') onText(part.text);
      } else if (part?.type === 'tool_call') {
        toolCalls.push({ id: typeof part.id === 'string' ? part.id : '', toolId: typeof part.toolId === 'string' ? part.toolId : String(part.toolId), input: part.input });
      } else if (part?.type === 'finish' && isMetadata(part.metadata)) {
        metadata = part.metadata;
      }
    }
  } catch (error) {
    if (error === ABORTED || signal.aborted) {
      void Promise.resolve(iterator?.return?.()).catch(() => undefined);
      return partial('cancelled');
    }
    return partial('failed', `the model failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return signal.aborted ? partial('cancelled') : partial('complete');
}

function isMetadata(value: unknown): value is MessageMetadata {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
