import { stat } from 'node:fs/promises';
import { hasRawBytes } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import { ToolExecutionError } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';

/**
 * `workdir`: resolved against the workspace root and checked by the fence like any path
 * a tool reads (§6.2, under this call's policy), then it must be a folder. A credential folder, a
 * missing one or a file is refused before anything runs.
 */
export async function resolveWorkdir(session: ToolSessionContext, workdir: string, policy: SandboxPolicy): Promise<string | ToolExecutionError> {
  const checked = await session.resolvePath(workdir, 'read', 'must-exist', policy, 'bash');
  if (!checked.ok) return checked.error;
  if (hasRawBytes(checked.path.path)) {
    // Node starts a process only in a folder it can name as UTF-8 text.
    return new ToolExecutionError('invalid_arguments', `workdir ${checked.path.displayPath} has a name that is not valid UTF-8, and bash cannot be started in such a folder; leave workdir out and begin the command with cd into it (bash spells such a byte $'\\xNN'). Nothing was run.`);
  }
  const entry = await stat(checked.path.path).catch(() => undefined);
  if (entry?.isDirectory() !== true) {
    return new ToolExecutionError('invalid_arguments', `workdir ${JSON.stringify(workdir)} is not a folder (${checked.path.displayPath}); give a folder, relative to the workspace root, or leave workdir out. Nothing was run.`);
  }
  return checked.path.path;
}
