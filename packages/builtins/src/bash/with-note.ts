import { ToolExecutionError, type ToolOutput } from '@openwork/tools-contract';

/** The output with one more line at the end of its text (an error's message too). */
export function withNote(output: ToolOutput, note: string): ToolOutput {
  if (typeof output === 'string') return `${output}\n${note}`;
  if (ToolExecutionError.isInstance(output)) {
    return new ToolExecutionError(output.code, `${output.message}\n${note}`, {
      retryable: output.retryable,
      sandboxDenied: output.sandboxDenied,
      artifacts: output.artifacts,
      ...(output.cause === undefined ? {} : { cause: output.cause }),
    });
  }
  return { ...output, text: `${output.text}\n${note}` };
}
