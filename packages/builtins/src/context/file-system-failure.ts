import { FileSystemError } from '@openwork/fs-backend';
import { ToolExecutionError } from '@openwork/tools-contract';

/**
 * A failure of the file-system backend as the tool's result (§8.1): `cancelled` stays
 * `cancelled`, everything else is `execution_failed` with the backend's message, which names the
 * operation, the path and the reason. Anything that is not a `FileSystemError` is rethrown: it is
 * a bug, and the toolset reports it as one.
 */
export function fileSystemFailure(error: unknown): ToolExecutionError {
  if (ToolExecutionError.isInstance(error)) return error;
  if (!FileSystemError.isInstance(error)) throw error;
  return new ToolExecutionError(error.code === 'cancelled' ? 'cancelled' : 'execution_failed', error.message, { cause: error });
}
