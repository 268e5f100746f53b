import { ToolResult } from '@openwork/tools-contract';
import type { OpenworkToolOutput } from './openwork-tool-output.js';

/**
 * The `ToolResultOutput` shapes of the AI SDK this adapter sends: text, text marked as an error,
 * or — for a result with images (image parts) — `content` with the text part first and one
 * `image-data` part (base64, with its media type) per image.
 */
export type ModelToolOutput =
  | { readonly type: 'text'; readonly value: string }
  | { readonly type: 'error-text'; readonly value: string }
  | {
      readonly type: 'content';
      // Mutable, as the SDK's `ToolResultOutput` declares it.
      readonly value: ({ readonly type: 'text'; readonly text: string } | { readonly type: 'image-data'; readonly data: string; readonly mediaType: string })[];
    };

/**
 * The model's view of a result (§8.1): its text and images, never artifacts. A result that did not
 * succeed is `error-text`, so providers mark it as an error (`is_error` on Anthropic); failures
 * carry no images.
 */
export function modelToolOutput(output: OpenworkToolOutput): ModelToolOutput {
  if (output.result.status !== 'succeeded') return { type: 'error-text', value: output.text };
  const images = ToolResult.images(output.result);
  if (images.length === 0) return { type: 'text', value: output.text };
  return {
    type: 'content',
    value: [{ type: 'text', text: output.text }, ...images.map((image) => ({ type: 'image-data' as const, data: image.data, mediaType: image.mimeType }))],
  };
}
