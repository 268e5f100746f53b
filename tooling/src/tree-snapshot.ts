import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

// Test support shared by the race tests of fs-backend and builtins (architecture §3.7 "Races").

/**
 * Everything observable about a tree, one line per entry: kind, inode, mode, size, change time and
 * content hash (or link target). Two snapshots are equal only if nothing in the tree was created,
 * removed, replaced or changed in between.
 */
export async function snapshotTree(root: string): Promise<string[]> {
  const lines: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const path = relative === '' ? root : join(root, relative);
    const stats = await lstat(path, { bigint: true });
    const head = `${relative || '.'} ino=${stats.ino} mode=${stats.mode.toString(8)} size=${stats.size} ctime=${stats.ctimeNs}`;
    if (stats.isSymbolicLink()) lines.push(`${head} link -> ${await readlink(path)}`);
    else if (stats.isFile()) lines.push(`${head} file ${createHash('sha256').update(await readFile(path)).digest('hex')}`);
    else if (stats.isDirectory()) {
      lines.push(`${head} folder`);
      for (const name of (await readdir(path)).sort()) await visit(relative === '' ? name : join(relative, name));
    } else lines.push(`${head} other`);
  };
  await visit('');
  return lines;
}

/** Our temp names (`.<name>.<pid>.<12 hex>.tmp`) anywhere below `root`. */
export async function tempFilesBelow(root: string): Promise<string[]> {
  return (await snapshotTree(root)).map((line) => line.split(' ')[0] as string).filter((relative) => /(^|\/)\.[^/]*\.\d+\.[0-9a-f]{12}\.tmp$/.test(relative));
}
