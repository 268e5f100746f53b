import type { Tool, ToolInputSchema } from './tool.js';

/**
 * Declares a tool with its input type inferred from `inputSchema`. Returns a frozen copy, so a
 * tool value cannot be changed after it is defined.
 */
export function defineTool<Schema extends ToolInputSchema, Session = unknown, Policy = unknown>(
  tool: Tool<Schema, Session, Policy>,
): Tool<Schema, Session, Policy> {
  return Object.freeze({ ...tool });
}
