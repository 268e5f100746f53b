import { hasMarker, ToolsContractError } from './tools-contract-error.js';

const MARKER = Symbol.for('openwork.tools-contract.error.ToolCallContextError');

/**
 * The host passed an unusable call context (a blank call ID, no `AbortSignal`). A programmer
 * mistake in the host, so it is thrown instead of becoming a tool result.
 */
export class ToolCallContextError extends ToolsContractError {
  private readonly [MARKER] = true;

  constructor(message: string) {
    super(message);
    this.name = 'ToolCallContextError';
  }

  static override isInstance(error: unknown): error is ToolCallContextError {
    return hasMarker(error, MARKER);
  }
}
