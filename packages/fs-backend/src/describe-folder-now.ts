import { lstat, realpath } from './byte-exact-fs.js';
import { isSameInode } from './is-same-file.js';

/**
 * Why the folder a write was checked in is not that folder any more, in words for the refusal:
 * it resolves elsewhere (a link on the way), cannot be resolved, or is another folder now.
 */
export async function describeFolderNow(folder: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return `its folder ${folder} cannot be resolved any more (${code ?? String(error)})`;
  }
  if (real !== folder) return `its folder ${folder} now resolves to ${real} (a folder on the way is a symbolic link)`;
  return `its folder ${folder} was moved away or replaced by another folder meanwhile`;
}

/**
 * `undefined` while `folder` still is the held folder `identity`: it canonicalises to itself (no
 * link on the way) and its entry is that very inode; otherwise why not, in words. A check only —
 * the writes themselves are tied to the held folder (`CheckedFolder`) — so its own two steps need
 * not be one: it tells a folder moved away or replaced meanwhile from one still in place.
 */
export async function whyFolderMoved(folder: string, identity: { readonly dev: bigint; readonly ino: bigint }): Promise<string | undefined> {
  const [real, now] = await Promise.all([realpath(folder).catch(() => undefined), lstat(folder, { bigint: true }).catch(() => undefined)]);
  if (real === folder && isSameInode(now, identity)) return undefined;
  return describeFolderNow(folder);
}
