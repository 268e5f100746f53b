import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Workspace roots from the client's MCP roots (as the reference filesystem server does): the
 * `file://` roots that are existing folders, in the client's order. Anything else is skipped; an
 * empty answer means "use the fallback" (`--workspace`).
 */
export async function workspaceRootsFromClient(roots: readonly { uri: string }[]): Promise<string[]> {
  const folders: string[] = [];
  for (const root of roots) {
    if (!root.uri.startsWith('file://')) continue;
    let path: string;
    try {
      path = fileURLToPath(root.uri);
    } catch {
      continue;
    }
    const entry = await stat(path).catch(() => undefined);
    if (entry?.isDirectory() === true && !folders.includes(path)) folders.push(path);
  }
  return folders;
}
