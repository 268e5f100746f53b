import { ToolExecutionError, type ToolArtifact, type ToolOutput } from '@openwork/tools-contract';

/** The output with these artifacts attached (a failed call keeps them too: its writes were applied). */
export function withArtifacts(output: ToolOutput, artifacts: readonly ToolArtifact[]): ToolOutput {
  if (artifacts.length === 0) return output;
  if (typeof output === 'string') return { text: output, artifacts };
  if (ToolExecutionError.isInstance(output)) {
    return new ToolExecutionError(output.code, output.message, {
      retryable: output.retryable,
      sandboxDenied: output.sandboxDenied,
      artifacts: [...output.artifacts, ...artifacts],
      ...(output.cause === undefined ? {} : { cause: output.cause }),
    });
  }
  return { ...output, artifacts: [...(output.artifacts ?? []), ...artifacts] };
}
