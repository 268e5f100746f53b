import * as fs from 'node:fs';
import * as path from 'node:path';

// Reading git's files from the host, bounded: a hostile tree must not make policy creation or the
// audit after a call slow, and nothing here throws for what it finds on disk.

/** Larger configuration or pointer files are not read (git's own are a few KB). */
export const maximumGitFileBytes = 1024 * 1024;

/** Counts what a scan read from the host, so that tests can prove it stays bounded. */
export interface GitScanStatistics {
  /** Folders listed (each at most `maximumListedEntries` entries). */
  listedFolders: number;
  /** Files read (configuration, pointers, indexes). */
  readFiles: number;
}

export function emptyGitScanStatistics(): GitScanStatistics {
  return { listedFolders: 0, readFiles: 0 };
}

export function readSmallFile(file: string, statistics?: GitScanStatistics, maximumBytes = maximumGitFileBytes): string | undefined {
  const bytes = readSmallBuffer(file, statistics, maximumBytes);
  return bytes === undefined ? undefined : bytes.toString('utf8');
}

export function readSmallBuffer(file: string, statistics?: GitScanStatistics, maximumBytes = maximumGitFileBytes): Buffer | undefined {
  try {
    const stats = fs.statSync(file);
    if (!stats.isFile() || stats.size > maximumBytes) return undefined;
    if (statistics !== undefined) statistics.readFiles += 1;
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

export type EntryKind = 'directory' | 'file' | 'symlink' | 'missing';

export function kindOf(file: string): EntryKind {
  try {
    const stats = fs.lstatSync(file);
    if (stats.isSymbolicLink()) return 'symlink';
    return stats.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

export function realDirectory(directory: string): string | undefined {
  try {
    const real = fs.realpathSync.native(directory);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** `gitdir: <path>` of a git file (linked worktree, submodule), relative to the file's folder. */
export function gitFileTarget(file: string, statistics?: GitScanStatistics): string | undefined {
  const text = readSmallFile(file, statistics);
  const match = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match === null ? undefined : path.posix.resolve(path.posix.dirname(file), match[1] as string);
}

/** A path value of a configuration file: `~/` is the home directory, relative paths are relative to `base`. */
export function configPath(value: string, base: string, homeDirectory: string): string | undefined {
  if (value === '' || value.includes('\0') || value.startsWith('%(')) return undefined;
  if (value === '~' || value.startsWith('~/')) return path.posix.join(homeDirectory, value.slice(1));
  if (value.startsWith('~')) return undefined; // ~user: another user's home, not ours to guess
  return path.posix.resolve(base, value);
}

/**
 * At most `limit` names of a folder, sorted, read with `opendir` so that a folder of 300,000
 * entries costs no more than one of `limit`. `complete` says whether that was all.
 */
export function listSomeEntries(directory: string, limit: number, statistics?: GitScanStatistics): { names: string[]; complete: boolean } {
  let handle: fs.Dir | undefined;
  try {
    handle = fs.opendirSync(directory);
    if (statistics !== undefined) statistics.listedFolders += 1;
    const names: string[] = [];
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (names.length === limit) return { names: names.sort(), complete: false };
      names.push(entry.name);
    }
    return { names: names.sort(), complete: true };
  } catch {
    return { names: [], complete: true };
  } finally {
    handle?.closeSync();
  }
}

/**
 * The git directory a work tree's `.git` names: the folder itself, a git file's target, or a
 * link's target; `undefined` when there is none (or it is not a folder).
 */
export function gitDirectoryOf(dotGit: string, statistics?: GitScanStatistics): string | undefined {
  switch (kindOf(dotGit)) {
    case 'directory':
      return dotGit;
    case 'file': {
      const target = gitFileTarget(dotGit, statistics);
      return target === undefined ? undefined : realDirectory(target);
    }
    case 'symlink':
      return realDirectory(dotGit);
    case 'missing':
      return undefined;
  }
}
