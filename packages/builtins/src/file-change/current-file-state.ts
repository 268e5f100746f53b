import { FileSystemError, type AsyncFileSystem } from '@openwork/fs-backend';
import { MAX_FILE_CHANGE_BYTES } from './max-file-change-bytes.js';

/**
 * What is at a path right now, as far as a hash precondition cares (§8.4): nothing, a regular
 * file of at most 1 MiB with this hash, or something no change can expect (a folder, a link, a
 * larger file: it cannot hold a change's content, so it is not even hashed).
 */
export type CurrentFileState =
  | { readonly kind: 'absent' }
  | { readonly kind: 'file'; readonly hash: string; readonly mode: number }
  | { readonly kind: 'other'; readonly description: string };

export async function currentFileState(filesystem: AsyncFileSystem, realPath: string): Promise<CurrentFileState> {
  let stat;
  try {
    stat = await filesystem.lstat(realPath);
  } catch (error) {
    if (FileSystemError.isInstance(error) && error.code === 'not_found') return { kind: 'absent' };
    throw error;
  }
  if (stat.kind === 'directory') return { kind: 'other', description: 'it is now a folder' };
  if (stat.kind === 'symlink') return { kind: 'other', description: 'it is now a symbolic link' };
  if (stat.kind !== 'file') return { kind: 'other', description: 'it is not a regular file' };
  if (stat.size > MAX_FILE_CHANGE_BYTES) return { kind: 'other', description: 'it is now larger than 1 MiB' };
  return { kind: 'file', hash: await filesystem.sha256File(realPath), mode: stat.mode };
}

/** Whether the state is the one a step expects: `null` means nothing may exist. */
export function stateMatches(state: CurrentFileState, expectedHash: string | null): boolean {
  if (expectedHash === null) return state.kind === 'absent';
  return state.kind === 'file' && state.hash === expectedHash;
}

/** The mismatch in words, for conflict messages. */
export function describeMismatch(state: CurrentFileState, expectedHash: string | null): string {
  switch (state.kind) {
    case 'absent':
      return 'it does not exist any more';
    case 'other':
      return state.description;
    case 'file':
      return expectedHash === null ? 'a file exists there now' : 'its content is different';
  }
}
