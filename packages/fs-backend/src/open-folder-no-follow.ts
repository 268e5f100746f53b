import { constants } from 'node:fs';
import { lstat, mkdir } from './byte-exact-fs.js';
import { closeDescriptor, descriptorPath, O_PATH, openDescriptor } from './descriptor-paths.js';
import { toNodePath } from './path-bytes.js';
import { FileSystemError } from './file-system-error.js';
import { toFileSystemError } from './to-file-system-error.js';

/** What a walk is for, in the words its errors use: `Cannot <operation> <path>: …`. */
export interface WalkPurpose {
  readonly operation: string;
  readonly path: string;
}

const folderFlags = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The names of `folder` from `/` on; `.` and `..` cannot be in a canonical path, so they are refused. */
function componentsOf(folder: string, purpose: WalkPurpose): string[] {
  const components = folder.split('/').filter((component) => component !== '');
  if (!folder.startsWith('/') || components.some((component) => component === '.' || component === '..')) {
    throw new FileSystemError({ code: 'invalid_path', path: purpose.path, message: `Cannot ${purpose.operation} ${purpose.path}: ${folder} is not a canonical absolute path.` });
  }
  return components;
}

/**
 * A component that is not a folder. A regular file (or device…) is `not_a_directory`; a link, or
 * an entry replaced while it was being opened (a racing process at work), is refused as such (§3.7).
 */
async function notAFolder(error: unknown, parent: number, component: string, reached: string, purpose: WalkPurpose): Promise<FileSystemError> {
  const now = await lstat(descriptorPath(parent, component)).catch(() => undefined);
  if (now !== undefined && !now.isSymbolicLink() && !now.isDirectory()) return toFileSystemError(error, purpose.operation, purpose.path);
  const what = now?.isSymbolicLink() === true ? 'is a symbolic link' : 'was replaced (by a link or another file) while it was being opened';
  return new FileSystemError({
    code: 'invalid_path',
    path: purpose.path,
    errno: (error as { code?: string }).code ?? 'ELOOP',
    message: `Cannot ${purpose.operation} ${purpose.path}: ${reached} ${what} (the path must be the canonical real path, and a link put there after the path was checked is never followed); nothing was changed. Resolve the path again and retry.`,
    cause: error,
  });
}

/** One step: the folder `component` inside `parent`, never through a link; made first when missing and `create`. */
async function openChild(parent: number, component: string, reached: string, create: boolean, purpose: WalkPurpose): Promise<number> {
  const child = descriptorPath(parent, component);
  try {
    return await openDescriptor(toNodePath(child), folderFlags);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' && create) {
      // mkdir never follows a link at its last component (EEXIST), and the new folder is opened no-follow like any other.
      await mkdir(child).catch((mkdirError: unknown) => {
        if ((mkdirError as { code?: string }).code !== 'EEXIST') throw toFileSystemError(mkdirError, purpose.operation, purpose.path);
      });
      return openChild(parent, component, reached, false, purpose);
    }
    if (code === 'ENOTDIR' || code === 'ELOOP') throw await notAFolder(error, parent, component, reached, purpose);
    throw toFileSystemError(error, purpose.operation, purpose.path);
  }
}

/**
 * Architecture §3.7 "Races": a descriptor of the canonical folder `folder`, reached from `/` one
 * component at a time with `O_DIRECTORY | O_NOFOLLOW`, each relative to the descriptor of the one
 * before. A symbolic link anywhere on the way — one a racing process just put there — is refused,
 * never followed, whatever happens to the path later. With `create`, missing folders are made on
 * the way, each inside the folder just opened. Linux only (descriptor paths); the caller closes
 * the descriptor.
 */
export async function openFolderNoFollow(folder: string, purpose: WalkPurpose, create = false): Promise<number> {
  const components = componentsOf(folder, purpose);
  let current = await openDescriptor('/', O_PATH | constants.O_DIRECTORY).catch((error: unknown) => {
    throw toFileSystemError(error, purpose.operation, purpose.path);
  });
  let reached = '';
  try {
    for (const component of components) {
      reached += `/${component}`;
      const next = await openChild(current, component, reached, create, purpose);
      closeDescriptor(current);
      current = next;
    }
    return current;
  } catch (error) {
    closeDescriptor(current);
    throw error;
  }
}
