import { stat } from 'node:fs/promises';
import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';

/**
 * Issue 26 `workdir`: resolved against the workspace root and checked by the fence like any path
 * a tool reads (§6.2, under this call's policy), then it must be a folder. A credential folder, a
 * missing one or a file is refused before anything runs.
 */
export async function resolveWorkdir(session: ToolSessionContext, workdir: string, policy: SandboxPolicy): Promise<string | ToolExecutionError> {
  const checked = await session.resolvePath(workdir, 'read', 'must-exist', policy, 'bash');
  if (!checked.ok) return checked.error;
  const entry = await stat(checked.path.path).catch(() => undefined);
  if (entry?.isDirectory() !== true) {
    return new ToolExecutionError('invalid_arguments', `workdir ${JSON.stringify(workdir)} is not a folder (${checked.path.displayPath}); give a folder, relative to the workspace root, or leave workdir out. Nothing was run.`);
  }
  return checked.path.path;
}
