import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { filesystemRootRefusal, isFilesystemRoot } from '../runtime/workspace-roots.js';

/**
 * Workspace roots from the client's MCP roots (as the reference filesystem server does): the
 * `file://` roots that are existing folders, in the client's order. Anything else is skipped; an
 * empty answer means "use the fallback" (`--workspace`). A root of `/` is refused (issue 24) with
 * a line on `log` that says why and what to do.
 */
export async function workspaceRootsFromClient(roots: readonly { uri: string }[], log: (line: string) => void = () => undefined): Promise<string[]> {
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
    if (entry?.isDirectory() !== true || folders.includes(path)) continue;
    if (isFilesystemRoot(path)) {
      log(`openwork mcp: ${filesystemRootRefusal(`The client's root ${root.uri}`)}`);
      continue;
    }
    folders.push(path);
  }
  return folders;
}
