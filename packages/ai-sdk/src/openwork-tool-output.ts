import type { ToolResult } from '@openwork/tools-contract';

/**
 * What a tool's `execute` returns to the AI SDK: the full result for the host and its UI
 * (`step.toolResults`, `useChat` parts), artifacts included. The model never sees this object:
 * `toModelOutput` gives it the text and images only (§8.1).
 */
export interface OpenworkToolOutput {
  /** The id core stored the call under; names its spill file and its file change (undo by it). */
  readonly callId: string;
  /** The one final result (§8.3), artifacts included. */
  readonly result: ToolResult;
  /** The model-visible text: the result's text parts joined, exactly what core's own turns send. */
  readonly text: string;
}
