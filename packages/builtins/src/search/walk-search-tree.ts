import type { DirectoryEntry } from '@openwork/fs-backend';
import type { SandboxPolicy } from '@openwork/sandbox';
import type { CheckedPath } from '../context/checked-path.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { compareCodePoints } from './compare-code-points.js';
import type { IgnoreRules } from './ignore-rules.js';
import { readIgnoreFile } from './load-ignore-rules.js';

/** One file the walk found. */
export interface WalkedFile {
  /** Canonical absolute path (the walk follows no link, so it is real). */
  readonly path: string;
  /** Relative to the search root, `/`-separated: what glob patterns are matched against. */
  readonly relativePath: string;
  /** How results show it: relative to the workspace when inside it (§7.6). */
  readonly displayPath: string;
}

export interface SearchWalkOptions {
  readonly session: ToolSessionContext;
  readonly policy: SandboxPolicy;
  /** The checked search root, a directory. */
  readonly root: CheckedPath;
  /** The rules in force at the root (`loadIgnoreRules`). */
  readonly rules: IgnoreRules;
  /** Asked per directory and per file (§7.6: cancellation and the limit); `true` ends the walk. */
  readonly shouldStop: () => boolean;
  readonly signal: AbortSignal;
  /** Files whose relative path fails this are not reported (the glob filter). */
  readonly accept?: (relativePath: string) => boolean;
  /** Each file, in walk order; awaited, so a slow consumer slows the walk (bounded memory). */
  readonly onFile: (file: WalkedFile) => void | Promise<void>;
}

/**
 * The one traversal of grep and glob (§7.6, §7.7): depth first, entries of a directory in code
 * point order (a stable walk order), `.gitignore` rules applied (inside a git repository, like
 * git and ripgrep), hidden files and folders skipped, symbolic links neither followed nor listed,
 * FIFOs and devices skipped, and every entry checked against the call's policy before it is
 * listed or read, so a credential path is never listed or read (acceptance 10b). Unreadable
 * directories are skipped. Returns `false` when `shouldStop` ended it.
 */
export async function walkSearchTree(options: SearchWalkOptions): Promise<boolean> {
  return walkDirectory(options, options.root, '', options.rules);
}

async function walkDirectory(options: SearchWalkOptions, directory: CheckedPath, relative: string, inherited: IgnoreRules): Promise<boolean> {
  if (options.shouldStop()) return false;
  const { session, policy } = options;
  let entries: DirectoryEntry[];
  try {
    entries = await session.filesystem.readdir(directory.path, { signal: options.signal });
    // The directory was listed as a directory by its parent; if it is a link now, someone swapped
    // it in between, and its listing may show another tree: skip it.
    if (directory !== options.root && (await session.filesystem.lstat(directory.path)).kind !== 'directory') return true;
  } catch {
    return true;
  }
  let rules = inherited;
  if (rules.active) {
    const ignoreFile = entries.find((entry) => entry.name === '.gitignore' && entry.kind === 'file');
    const checked = ignoreFile === undefined ? undefined : session.walkedPath(directory, '.gitignore', policy);
    if (checked !== undefined) {
      const patterns = await readIgnoreFile(session, checked.path);
      if (patterns !== undefined) rules = rules.with(directory.path, patterns);
    }
  }
  entries.sort((left, right) => compareCodePoints(left.name, right.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const isDirectory = entry.kind === 'directory';
    if (!isDirectory && entry.kind !== 'file') continue;
    if (rules.active && rules.ignores(directory.path === '/' ? `/${entry.name}` : `${directory.path}/${entry.name}`, isDirectory)) continue;
    const checked = session.walkedPath(directory, entry.name, policy);
    if (checked === undefined) continue;
    const entryRelative = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (isDirectory) {
      if (!(await walkDirectory(options, checked, entryRelative, rules))) return false;
      continue;
    }
    if (options.accept !== undefined && !options.accept(entryRelative)) continue;
    if (options.shouldStop()) return false;
    await options.onFile({ path: checked.path, relativePath: entryRelative, displayPath: checked.displayPath });
  }
  return true;
}
