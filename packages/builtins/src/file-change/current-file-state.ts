import { FileSystemError, type AsyncFileSystem } from '@openwork/fs-backend';
import type { EntryState } from './file-change-step.js';
import { MAX_FILE_CHANGE_BYTES } from './max-file-change-bytes.js';

/**
 * What is at a path right now, as far as a precondition cares (§8.4): nothing, a regular file of
 * at most 1 MiB with this hash, a link and its target, a folder, or something no change can
 * expect (a larger file: it cannot hold a change's content, so it is not even hashed).
 */
export type CurrentFileState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly hash: string; readonly mode: number }
  | { readonly kind: 'symlink'; readonly target: string }
  | { readonly kind: 'directory'; readonly mode: number }
  | { readonly kind: 'other'; readonly description: string };

export async function currentFileState(filesystem: AsyncFileSystem, realPath: string): Promise<CurrentFileState> {
  let stat;
  try {
    stat = await filesystem.lstat(realPath);
  } catch (error) {
    if (FileSystemError.isInstance(error) && error.code === 'not_found') return { kind: 'absent' };
    throw error;
  }
  if (stat.kind === 'directory') return { kind: 'directory', mode: stat.mode };
  if (stat.kind === 'symlink') {
    if (filesystem.readlink === undefined) return { kind: 'other', description: 'it is now a symbolic link' };
    return { kind: 'symlink', target: await filesystem.readlink(realPath) };
  }
  if (stat.kind !== 'file') return { kind: 'other', description: 'it is not a regular file' };
  if (stat.size > MAX_FILE_CHANGE_BYTES) return { kind: 'other', description: 'it is now larger than 1 MiB' };
  return { kind: 'file', hash: await filesystem.sha256File(realPath), mode: stat.mode };
}

/** Whether what is there is the side a step expects. */
export function stateMatches(state: CurrentFileState, expected: EntryState): boolean {
  switch (expected.kind) {
    case 'absent':
      return state.kind === 'absent';
    case 'file':
      return state.kind === 'file' && state.hash === expected.hash;
    case 'symlink':
      return state.kind === 'symlink' && state.target === expected.target;
    case 'directory':
      return state.kind === 'directory';
  }
}

/** The mismatch in words, for conflict messages. */
export function describeMismatch(state: CurrentFileState, expected: EntryState): string {
  switch (state.kind) {
    case 'absent':
      return 'it does not exist any more';
    case 'other':
      return state.description;
    case 'file':
      if (expected.kind === 'absent') return 'a file exists there now';
      return expected.kind === 'file' ? 'its content is different' : 'it is now a file';
    case 'symlink':
      if (expected.kind === 'absent') return 'a symbolic link exists there now';
      return expected.kind === 'symlink' ? 'the link points somewhere else now' : 'it is now a symbolic link';
    case 'directory':
      return expected.kind === 'absent' ? 'a folder exists there now' : 'it is now a folder';
  }
}
