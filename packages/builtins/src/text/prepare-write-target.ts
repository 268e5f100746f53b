import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import { fileSystemFailure } from '../context/file-system-failure.js';
import type { PathCheck } from '../context/path-check.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';

/**
 * §6.2 "write 与 edit 先解析检查，再创建父目录，然后再解析检查一次": resolve and check the target
 * (`may-create`), create its missing parent directories, then resolve and check it again, so a
 * directory swapped for a link in between cannot lead the write elsewhere. The second check is
 * what the write uses.
 */
export async function prepareWriteTarget(
  session: ToolSessionContext,
  input: string,
  policy: SandboxPolicy,
  tool: string,
): Promise<PathCheck> {
  const first = await session.resolvePath(input, 'write', 'may-create', policy, tool);
  if (!first.ok) return first;
  const parent = parentOf(first.path);
  try {
    await session.filesystem.mkdirp(parent);
  } catch (error) {
    return { ok: false, error: fileSystemFailure(error) };
  }
  return session.resolvePath(input, 'write', 'may-create', policy, tool);
}

function parentOf(path: CheckedPath): string {
  const index = path.path.lastIndexOf('/');
  return index <= 0 ? '/' : path.path.slice(0, index);
}
