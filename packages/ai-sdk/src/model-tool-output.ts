import type { OpenworkToolOutput } from './openwork-tool-output.js';

/** The two `ToolResultOutput` shapes of the AI SDK this adapter sends: text, or text marked as an error. */
export type ModelToolOutput = { readonly type: 'text'; readonly value: string } | { readonly type: 'error-text'; readonly value: string };

/**
 * The model's view of a result (§8.1): the text only, never artifacts. A result that did not
 * succeed is `error-text`, so providers mark it as an error (`is_error` on Anthropic).
 */
export function modelToolOutput(output: OpenworkToolOutput): ModelToolOutput {
  if (output.result.status === 'succeeded') return { type: 'text', value: output.text };
  return { type: 'error-text', value: output.text };
}
