import { resultText, type CliToolResult } from '../output/tool-result-output.js';

/** MCP `content` of a tool result: a `TextContent`, then an `ImageContent` per image part (image parts). */
export type McpResultContent = ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[];

/**
 * The model-visible parts of a result as MCP content (§8.1: never artifacts, which go to
 * `structuredContent` for the host). The text comes first, so a client that shows text only still
 * reads what each image is; images are base64 `ImageContent` with their MIME type.
 */
export function mcpResultContent(result: CliToolResult): McpResultContent {
  const images = result.content.flatMap((part) => (part.type === 'image' ? [{ type: 'image' as const, data: part.data, mimeType: part.mimeType }] : []));
  return [{ type: 'text', text: resultText(result) }, ...images];
}
