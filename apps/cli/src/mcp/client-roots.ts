import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { filesystemRootRefusal, isFilesystemRoot } from '../runtime/workspace-roots.js';

/** A client root that was not used, with the reason (one warning line each). */
export interface DroppedRoot {
  readonly uri: string;
  readonly reason: string;
}

/**
 * Workspace roots from the client's MCP roots (as the reference filesystem server does): the
 * `file://` roots that are existing folders, in the client's order. Each root is judged on its
 * own (MCP clients): an invalid one is dropped with its reason and the others still apply. An empty
 * `folders` means "use the fallback" (`--workspace`).
 */
export async function workspaceRootsFromClient(roots: readonly unknown[]): Promise<{ folders: string[]; dropped: DroppedRoot[] }> {
  const folders: string[] = [];
  const dropped: DroppedRoot[] = [];
  for (const root of roots) {
    const uri = typeof root === 'object' && root !== null ? (root as { uri?: unknown }).uri : undefined;
    if (typeof uri !== 'string') {
      dropped.push({ uri: JSON.stringify(root)?.slice(0, 200) ?? String(root), reason: 'it has no uri string' });
      continue;
    }
    if (!uri.startsWith('file://')) {
      dropped.push({ uri, reason: 'only file:// roots name a folder of this machine' });
      continue;
    }
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch (error) {
      dropped.push({ uri, reason: `it is not a valid file URL (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    const entry = await stat(path).catch(() => undefined);
    if (entry?.isDirectory() !== true) {
      dropped.push({ uri, reason: entry === undefined ? 'no such folder' : 'it is not a folder' });
      continue;
    }
    if (isFilesystemRoot(path)) {
      // No `/` root: `/` as a workspace root would make everything outside the protected paths writable.
      dropped.push({ uri, reason: filesystemRootRefusal('it') });
      continue;
    }
    if (!folders.includes(path)) folders.push(path);
  }
  return { folders, dropped };
}
