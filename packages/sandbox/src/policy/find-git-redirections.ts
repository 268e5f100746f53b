import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitConfigEntries } from './git-config-entries.js';
import type { ScopedPath } from './sandbox-layout.js';

/**
 * The names inside a git directory through which git decides which configuration and hooks to
 * use (architecture §3.2 tier 3): `commondir` moves config and hooks to another folder,
 * `config.worktree` adds configuration, `worktrees/<name>/` holds the `commondir`/`config.worktree`
 * of each linked worktree. The rest of the git directory stays writable (`git commit`).
 */
export const gitRedirectionNames: readonly string[] = Object.freeze(['config', 'config.worktree', 'hooks', 'commondir', 'worktrees']);

// Bounds for what is read from the host: a hostile tree must not make policy creation slow.
const maximumIncludeDepth = 10; // git's own limit for include chains
const maximumModuleDepth = 4;
const maximumGitDirectories = 256;
const maximumFileBytes = 1024 * 1024;

function readSmallFile(file: string): string | undefined {
  try {
    const stats = fs.statSync(file);
    if (!stats.isFile() || stats.size > maximumFileBytes) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function kindOf(file: string): 'directory' | 'file' | 'symlink' | 'missing' {
  try {
    const stats = fs.lstatSync(file);
    if (stats.isSymbolicLink()) return 'symlink';
    return stats.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

function realDirectory(directory: string): string | undefined {
  try {
    const real = fs.realpathSync.native(directory);
    return fs.statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** `gitdir: <path>` of a git file (linked worktree, submodule), relative to the file's folder. */
function gitFileTarget(file: string): string | undefined {
  const text = readSmallFile(file);
  const match = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match === null ? undefined : path.posix.resolve(path.posix.dirname(file), match[1] as string);
}

/** A path value of a configuration file: `~/` is the home directory, relative paths are relative to `base`. */
function configPath(value: string, base: string, homeDirectory: string): string | undefined {
  if (value === '' || value.includes('\0') || value.startsWith('%(')) return undefined;
  if (value === '~' || value.startsWith('~/')) return path.posix.join(homeDirectory, value.slice(1));
  if (value.startsWith('~')) return undefined; // ~user: another user's home, not ours to guess
  return path.posix.resolve(base, value);
}

/**
 * Everything through which git could be redirected to an attacker's configuration or hooks, for
 * the repositories of `roots` (each root's own `.git`, or the repository that holds the root) and
 * the user's global configuration, read from the host now (architecture §3.2):
 *
 * - a `.git` that is a file (linked worktree, submodule) or a symbolic link: the entry itself
 *   (`exact`: a `.git` directory's contents stay writable), and the git directory it names;
 * - in every git directory found (a `.git` folder, a git file's target, its `commondir`, each
 *   submodule's directory under `modules/`): `config`, `config.worktree`, `hooks`, `commondir`,
 *   `worktrees` (`gitRedirectionNames`), also when they do not exist yet;
 * - the `.git` files of submodule work trees (`core.worktree` of each module) and of linked
 *   worktrees (`worktrees/<name>/gitdir`): replaced, they point git elsewhere;
 * - the folder named by `core.hooksPath` (relative to the work tree), and its parent when it is
 *   husky's `_` folder (whose hooks run `../<hook>`);
 * - every file named by `include.path` or `includeIf.<condition>.path`, whatever the condition,
 *   followed to git's depth of 10.
 *
 * Paths are absolute, not yet canonical; nothing here throws for what it finds on disk.
 */
export function findGitRedirections(roots: readonly string[], homeDirectory: string): ScopedPath[] {
  const found = new Map<string, ScopedPath>();
  const add = (entry: ScopedPath): void => {
    if (entry.path.includes('\0') || !entry.path.startsWith('/')) return;
    const key = `${entry.scope}\0${entry.path}`;
    if (!found.has(key)) found.set(key, Object.freeze({ ...entry }));
  };
  const seenGitDirectories = new Set<string>();
  const seenConfigs = new Set<string>();

  const readConfig = (file: string, workTree: string | undefined, depth: number): void => {
    const key = `${file}\0${workTree ?? ''}`;
    if (depth > maximumIncludeDepth || seenConfigs.has(key)) return;
    seenConfigs.add(key);
    const text = readSmallFile(file);
    if (text === undefined) return;
    for (const entry of gitConfigEntries(text)) {
      if (entry.section === 'core' && entry.subsection === undefined && entry.name === 'hookspath') {
        const hooks = configPath(entry.value, workTree ?? path.posix.dirname(file), homeDirectory);
        if (hooks === undefined) continue;
        add({ path: hooks, scope: 'subtree' });
        // husky >= 9: hooksPath is `.husky/_`, whose scripts run the user's `.husky/<hook>`.
        if (path.posix.basename(hooks) === '_') add({ path: path.posix.dirname(hooks), scope: 'subtree' });
      } else if ((entry.section === 'include' || entry.section === 'includeif') && entry.name === 'path') {
        const included = configPath(entry.value, path.posix.dirname(file), homeDirectory);
        if (included === undefined) continue;
        add({ path: included, scope: 'subtree' });
        readConfig(included, workTree, depth + 1);
      }
    }
  };

  const visitGitDirectory = (gitDirectory: string, workTree: string | undefined, moduleDepth: number): void => {
    const real = realDirectory(gitDirectory) ?? gitDirectory;
    if (seenGitDirectories.has(real) || seenGitDirectories.size >= maximumGitDirectories) return;
    seenGitDirectories.add(real);
    for (const name of gitRedirectionNames) add({ path: path.posix.join(gitDirectory, name), scope: 'subtree' });
    readConfig(path.posix.join(real, 'config'), workTree, 0);
    readConfig(path.posix.join(real, 'config.worktree'), workTree, 0);
    const common = readSmallFile(path.posix.join(real, 'commondir'))?.split(/\r?\n/)[0]?.trim();
    if (common !== undefined && common !== '') visitGitDirectory(path.posix.resolve(real, common), workTree, moduleDepth);
    visitLinkedWorktrees(real);
    if (moduleDepth < maximumModuleDepth) visitModules(path.posix.join(real, 'modules'), moduleDepth + 1);
  };

  // `worktrees/<name>/gitdir` names the `.git` file of each linked worktree.
  const visitLinkedWorktrees = (gitDirectory: string): void => {
    for (const name of listDirectory(path.posix.join(gitDirectory, 'worktrees'))) {
      const pointer = readSmallFile(path.posix.join(gitDirectory, 'worktrees', name, 'gitdir'))?.trim();
      if (pointer !== undefined && pointer.startsWith('/')) add({ path: pointer, scope: 'exact' });
    }
  };

  // Submodules: `modules/<name>` (names may contain slashes) holds a git directory with HEAD.
  const visitModules = (directory: string, moduleDepth: number): void => {
    const pending = [directory];
    while (pending.length > 0 && seenGitDirectories.size < maximumGitDirectories) {
      const current = pending.pop() as string;
      for (const name of listDirectory(current)) {
        const candidate = path.posix.join(current, name);
        if (kindOf(candidate) !== 'directory') continue;
        if (kindOf(path.posix.join(candidate, 'HEAD')) === 'missing') {
          pending.push(candidate);
          continue;
        }
        const workTreeValue = gitConfigEntries(readSmallFile(path.posix.join(candidate, 'config')) ?? '').find(
          (entry) => entry.section === 'core' && entry.subsection === undefined && entry.name === 'worktree',
        )?.value;
        const moduleWorkTree = workTreeValue === undefined ? undefined : path.posix.resolve(candidate, workTreeValue);
        if (moduleWorkTree !== undefined) add({ path: path.posix.join(moduleWorkTree, '.git'), scope: 'exact' });
        visitGitDirectory(candidate, moduleWorkTree, moduleDepth);
      }
    }
  };

  const visitWorkTree = (workTree: string): boolean => {
    const dotGit = path.posix.join(workTree, '.git');
    switch (kindOf(dotGit)) {
      case 'directory':
        visitGitDirectory(dotGit, workTree, 0);
        return true;
      case 'file': {
        add({ path: dotGit, scope: 'exact' });
        const target = gitFileTarget(dotGit);
        if (target !== undefined) visitGitDirectory(target, workTree, 0);
        return true;
      }
      case 'symlink': {
        add({ path: dotGit, scope: 'exact' });
        const target = realDirectory(dotGit);
        if (target !== undefined) visitGitDirectory(target, workTree, 0);
        return true;
      }
      case 'missing':
        return false;
    }
  };

  const workTrees: string[] = [];
  for (const root of roots) {
    if (visitWorkTree(root)) {
      workTrees.push(root);
      continue;
    }
    // A root inside a repository: git run in the root uses that repository's config and hooks.
    for (let ancestor = path.posix.dirname(root); ; ancestor = path.posix.dirname(ancestor)) {
      if (visitWorkTree(ancestor)) {
        workTrees.push(ancestor);
        break;
      }
      if (ancestor === '/') break;
    }
  }
  // The user's own configuration applies to every repository: a relative hooksPath there is
  // relative to each work tree.
  for (const global of [path.posix.join(homeDirectory, '.gitconfig'), path.posix.join(homeDirectory, '.config/git/config')]) {
    if (workTrees.length === 0) readConfig(global, undefined, 0);
    for (const workTree of workTrees) readConfig(global, workTree, 0);
  }
  return [...found.values()];
}

function listDirectory(directory: string): string[] {
  try {
    return fs.readdirSync(directory).sort();
  } catch {
    return [];
  }
}
