import type { LanguageModel, LanguageModelRequest, LanguageModelStreamPart } from '../model/language-model.js';

/** One answer of the script: parts to stream, or a function of the request that returns them. */
export type ScriptedAnswer =
  | readonly LanguageModelStreamPart[]
  | ((request: LanguageModelRequest, signal: AbortSignal) => readonly LanguageModelStreamPart[] | Promise<readonly LanguageModelStreamPart[]>);

/**
 * A model that answers from a script, one answer per request, and keeps every request it got —
 * what a provider would have been sent.
 */
export class ScriptedModel implements LanguageModel {
  readonly requests: LanguageModelRequest[] = [];
  readonly #answers: readonly ScriptedAnswer[];

  constructor(answers: readonly ScriptedAnswer[]) {
    this.#answers = answers;
  }

  async *stream(request: LanguageModelRequest, options: { readonly signal: AbortSignal }): AsyncIterable<LanguageModelStreamPart> {
    this.requests.push(request);
    const answer = this.#answers[this.requests.length - 1];
    if (answer === undefined) throw new Error(`the script has no answer for request ${this.requests.length}`);
    const parts = typeof answer === 'function' ? await answer(request, options.signal) : answer;
    for (const part of parts) yield part;
  }
}

export function say(text: string): LanguageModelStreamPart {
  return { type: 'text', text };
}

export function callTool(id: string, toolId: string, input: unknown): LanguageModelStreamPart {
  return { type: 'tool_call', id, toolId, input: typeof input === 'string' ? input : JSON.stringify(input) };
}
