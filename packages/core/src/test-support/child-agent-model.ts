import type { LanguageModel, LanguageModelRequest, LanguageModelStreamPart } from '../model/language-model.js';

/** How a scripted child answers one request: from its task (the first user message) and the request. */
export type ChildAnswer = (task: string, request: LanguageModelRequest, signal: AbortSignal) => readonly LanguageModelStreamPart[] | Promise<readonly LanguageModelStreamPart[]>;

/**
 * A scripted model for child agents: one model for every role, answering each request with
 * `answer(task, request, signal)`, where `task` is the child's first user message. Keeps every
 * request it got.
 */
export class ChildAgentModel implements LanguageModel {
  readonly requests: LanguageModelRequest[] = [];
  readonly #answer: ChildAnswer;

  constructor(answer: ChildAnswer) {
    this.#answer = answer;
  }

  async *stream(request: LanguageModelRequest, options: { readonly signal: AbortSignal }): AsyncIterable<LanguageModelStreamPart> {
    this.requests.push(request);
    const first = request.messages.find((message) => message.role === 'user');
    const parts = await this.#answer(first?.role === 'user' ? first.text : '', request, options.signal);
    for (const part of parts) yield part;
  }
}

/** A promise that resolves when `signal` aborts (a child that works until cancelled). */
export function untilCancelled(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('cancelled'));
    signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
  });
}

/** A gate a test opens when it wants a child to go on. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
