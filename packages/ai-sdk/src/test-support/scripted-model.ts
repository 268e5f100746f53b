import { MockLanguageModelV3 } from 'ai/test';

type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type LanguageModelV3Content = LanguageModelV3GenerateResult['content'][number];

/** One scripted answer: text and/or tool calls (arguments as objects). */
export interface ScriptedAnswer {
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly tool: string; readonly input: unknown }[];
}

/** The AI SDK's own mock model, answering from a script; `prompts` holds every prompt it received. */
export interface ScriptedModel {
  readonly model: MockLanguageModelV3;
  readonly prompts: LanguageModelV3CallOptions['prompt'][];
}

export function scriptedModel(answers: readonly ScriptedAnswer[]): ScriptedModel {
  const queue = [...answers];
  const prompts: LanguageModelV3CallOptions['prompt'][] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> => {
      prompts.push(options.prompt);
      const answer = queue.shift();
      if (answer === undefined) throw new Error('the script has no more answers');
      const content: LanguageModelV3Content[] = [];
      if (answer.text !== undefined) content.push({ type: 'text', text: answer.text });
      for (const call of answer.calls ?? []) content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.tool, input: JSON.stringify(call.input) });
      const calls = (answer.calls ?? []).length > 0;
      return {
        content,
        finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 10, text: 10, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}
