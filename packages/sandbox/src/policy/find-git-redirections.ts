import * as path from 'node:path';
import { isGitInclude, readGitConfigFile } from './git-config-entries.js';
import { gitSensitiveNames, hookManagerConfigNames } from './git-sensitive-names.js';
import type { GitConfigEntry } from './git-config-entries.js';
import { configPath, gitFileTarget, kindOf, listSomeEntries, readSmallFile, realDirectory } from './git-files.js';
import type { GitScanStatistics } from './git-files.js';
import { readGitlinks } from './read-gitlinks.js';
import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import type { ScopedPath } from './sandbox-layout.js';

/**
 * The names inside a git directory through which git decides which configuration and hooks to
 * use (architecture §3.2 tier 3), from the one table `gitSensitiveNames`: `commondir` moves config
 * and hooks to another folder, `config.worktree` adds configuration, `worktrees/<name>/` holds the
 * `commondir`/`config.worktree` of each linked worktree, and `modules/<name>/` the git directory
 * (config, hooks) of each submodule, which `git submodule update` takes as it finds it. The rest
 * of the git directory stays writable (`git commit`).
 */
export const gitRedirectionNames: readonly string[] = Object.freeze(gitSensitiveNames.map((entry) => entry.name));

// Bounds for what is read from the host: a hostile tree must not make policy creation slow.
// Nothing below lists a folder of `.git` that a command can fill: `worktrees/`
// and `modules/` are protected, and the index is one file.
const maximumIncludeDepth = 10; // git's own limit for include chains
const maximumRepositoryDepth = 4; // gitlinks inside gitlinks
const maximumGitDirectories = 256;
const maximumLinkedWorktrees = 256;

export interface FindGitRedirectionsOptions {
  /**
   * The workspace roots among `roots`: git run in one also discovers a repository above it, so the
   * names that would make one (`.git`, a bare repository's `HEAD`) are protected in each folder
   * above it that lies in one of `roots`.
   */
  readonly workspaceRoots?: readonly string[];
  /** The temp roots among `roots`: shared, so a `.git` that is no repository there is protected whole. */
  readonly tempRoots?: readonly string[];
  /** Counts folders listed and files read (tests prove the scan bounded with it). */
  readonly statistics?: GitScanStatistics;
}

/** One scan: what was found, and what was read already. Each method is one named step. */
class GitRedirectionScan {
  readonly #found = new Map<string, ScopedPath>();
  readonly #seenGitDirectories = new Set<string>();
  readonly #seenConfigs = new Set<string>();
  readonly #homeDirectory: string;
  readonly #statistics: GitScanStatistics | undefined;

  constructor(homeDirectory: string, statistics: GitScanStatistics | undefined) {
    this.#homeDirectory = homeDirectory;
    this.#statistics = statistics;
  }

  add(entry: ScopedPath): void {
    if (entry.path.includes('\0') || !entry.path.startsWith('/')) return;
    const key = `${entry.scope}\0${entry.path}`;
    if (!this.#found.has(key)) this.#found.set(key, Object.freeze({ ...entry }));
  }

  result(): ScopedPath[] {
    return [...this.#found.values()];
  }

  /**
   * The entries of a configuration file. Fails closed: when git would refuse the file, or it cannot
   * be read whole, what it says after the problem is unknown — a `core.hooksPath` or an include
   * there could name any folder — so the folder that holds the file (where its relative includes
   * lead) and the work tree it applies to (where a relative `hooksPath` leads) are protected whole.
   * git itself refuses to run with such a file, so nothing that works is lost. The entries before
   * the problem are still followed.
   */
  configEntries(file: string, workTree: string | undefined): readonly GitConfigEntry[] {
    const parse = readGitConfigFile(file, this.#statistics);
    if (!parse.trusted) {
      this.add({ path: path.posix.dirname(file), scope: 'subtree' });
      if (workTree !== undefined) this.add({ path: workTree, scope: 'subtree' });
    }
    return parse.entries;
  }

  /** `core.hooksPath` (and husky's parent folder) and every included file, followed to git's depth. */
  readConfig(file: string, workTree: string | undefined, depth: number): void {
    const key = `${file}\0${workTree ?? ''}`;
    if (depth > maximumIncludeDepth || this.#seenConfigs.has(key)) return;
    this.#seenConfigs.add(key);
    for (const entry of this.configEntries(file, workTree)) {
      if (entry.section === 'core' && entry.subsection === undefined && entry.name === 'hookspath') {
        const hooks = configPath(entry.value, workTree ?? path.posix.dirname(file), this.#homeDirectory);
        if (hooks === undefined) continue;
        this.add({ path: hooks, scope: 'subtree' });
        // husky >= 9: hooksPath is `.husky/_`, whose scripts run the user's `.husky/<hook>`.
        if (path.posix.basename(hooks) === '_') this.add({ path: path.posix.dirname(hooks), scope: 'subtree' });
      } else if (isGitInclude(entry)) {
        const included = configPath(entry.value, path.posix.dirname(file), this.#homeDirectory);
        if (included === undefined) continue;
        this.add({ path: included, scope: 'subtree' });
        this.readConfig(included, workTree, depth + 1);
      }
    }
  }

  /** A git directory: its redirection names, configuration, `commondir`, linked worktrees, known submodules. */
  visitGitDirectory(gitDirectory: string, workTree: string | undefined): void {
    const real = realDirectory(gitDirectory) ?? gitDirectory;
    if (this.#seenGitDirectories.has(real) || this.#seenGitDirectories.size >= maximumGitDirectories) return;
    this.#seenGitDirectories.add(real);
    for (const name of gitRedirectionNames) this.add({ path: path.posix.join(gitDirectory, name), scope: 'subtree' });
    if (workTree !== undefined) for (const name of hookManagerConfigNames) this.add({ path: path.posix.join(workTree, name), scope: 'subtree' });
    this.readConfig(path.posix.join(real, 'config'), workTree, 0);
    this.readConfig(path.posix.join(real, 'config.worktree'), workTree, 0);
    const common = readSmallFile(path.posix.join(real, 'commondir'), this.#statistics)?.split(/\r?\n/)[0]?.trim();
    if (common !== undefined && common !== '') this.visitGitDirectory(path.posix.resolve(real, common), workTree);
    this.visitLinkedWorktrees(real);
    this.visitKnownSubmodules(real);
  }

  /** `worktrees/<name>/gitdir` names the `.git` file of each linked worktree (`worktrees/` is protected). */
  visitLinkedWorktrees(gitDirectory: string): void {
    const { names } = listSomeEntries(path.posix.join(gitDirectory, 'worktrees'), maximumLinkedWorktrees, this.#statistics);
    for (const name of names) {
      const pointer = readSmallFile(path.posix.join(gitDirectory, 'worktrees', name, 'gitdir'), this.#statistics)?.trim();
      if (pointer !== undefined && pointer.startsWith('/')) this.add({ path: pointer, scope: 'exact' });
    }
  }

  /**
   * The submodules the (protected) configuration names (`[submodule "<name>"]`): their git
   * directories `modules/<name>` keep their own names protected inside a grant on the module.
   * `modules/` itself is protected as a whole, so nothing else of it needs listing.
   */
  visitKnownSubmodules(gitDirectory: string): void {
    const names = new Set<string>();
    for (const entry of this.configEntries(path.posix.join(gitDirectory, 'config'), undefined)) {
      if (entry.section === 'submodule' && entry.subsection !== undefined) names.add(entry.subsection);
    }
    for (const name of names) {
      const moduleDirectory = path.posix.resolve(gitDirectory, 'modules', name);
      if (!moduleDirectory.startsWith(`${gitDirectory}/modules/`) || kindOf(path.posix.join(moduleDirectory, 'HEAD')) === 'missing') continue;
      const worktree = this.configEntries(path.posix.join(moduleDirectory, 'config'), undefined).find(
        (entry) => entry.section === 'core' && entry.subsection === undefined && entry.name === 'worktree',
      )?.value;
      const moduleWorkTree = worktree === undefined ? undefined : path.posix.resolve(moduleDirectory, worktree);
      if (moduleWorkTree !== undefined) this.add({ path: path.posix.join(moduleWorkTree, '.git'), scope: 'exact' });
      this.visitGitDirectory(moduleDirectory, moduleWorkTree);
    }
  }

  /** A work tree's `.git` (folder, git file or link), then the repositories its index links to. */
  visitWorkTree(workTree: string, depth: number): boolean {
    const dotGit = path.posix.join(workTree, '.git');
    let gitDirectory: string | undefined;
    switch (kindOf(dotGit)) {
      case 'directory':
        gitDirectory = dotGit;
        break;
      case 'file':
        this.add({ path: dotGit, scope: 'exact' });
        gitDirectory = gitFileTarget(dotGit, this.#statistics);
        break;
      case 'symlink':
        this.add({ path: dotGit, scope: 'exact' });
        gitDirectory = realDirectory(dotGit);
        break;
      case 'missing':
        return false;
    }
    if (gitDirectory !== undefined) {
      this.visitGitDirectory(gitDirectory, workTree);
      this.visitGitlinks(workTree, gitDirectory, depth);
    }
    return true;
  }

  /**
   * Gitlinks of the index (submodules, embedded repositories): git recurses into each populated
   * one, so each is visited like the root's repository. One index read, cached.
   */
  visitGitlinks(workTree: string, gitDirectory: string, depth: number): void {
    if (depth >= maximumRepositoryDepth) return;
    const real = realDirectory(gitDirectory);
    if (real === undefined) return;
    const format = this.configEntries(path.posix.join(real, 'config'), workTree).find(
      (entry) => entry.section === 'extensions' && entry.subsection === undefined && entry.name === 'objectformat',
    );
    const gitlinks = readGitlinks(real, format?.value.toLowerCase() === 'sha256' ? 32 : 20, this.#statistics);
    for (const link of gitlinks.paths) {
      const child = path.posix.join(workTree, link);
      if (!child.startsWith(`${workTree}/`) || kindOf(path.posix.join(child, '.git')) === 'missing') continue;
      this.visitWorkTree(child, depth + 1);
    }
  }

  /** The repository git uses in `root`: its own `.git`, or the first one above it. */
  visitRepositoryOf(root: string): string[] {
    for (let directory = root; ; directory = path.posix.dirname(directory)) {
      if (this.visitWorkTree(directory, 0)) return [directory];
      if (directory === '/') return [];
    }
  }

  /**
   * Repositories git would find above the root: in the workspace root (when it is no repository) and in every folder above
   * it that a command can write, the names through which git would find a repository there — a
   * `.git`, and `HEAD`, without which no folder is a bare repository — until the repository the
   * root lies in, if any. Above the root a `.git` that is no repository is protected whole, also
   * when it is a folder: files put in it would make it a repository of the folder above. In the
   * root itself only git's own names in it are, so that `git init` there works.
   */
  protectAncestors(workspaceRoot: string, writableRoots: readonly ScopedPath[]): void {
    for (let directory = workspaceRoot; isInsideAnyScopedPath(directory, writableRoots); directory = path.posix.dirname(directory)) {
      if (!this.protectRepositoryNames(directory, directory === workspaceRoot)) return;
      if (directory === '/') return;
    }
  }

  /**
   * A temp root is shared by every process of the machine (architecture §3.7): when it is no
   * repository, its `.git` and `HEAD` are protected whole like a folder above a workspace root
   * (each protected whole, not name by name inside a `.git` made for them).
   */
  protectTempRoot(tempRoot: string): void {
    this.protectRepositoryNames(tempRoot, false);
  }

  /** The names that would make `directory` a repository; false when it already is one (nothing to add). */
  protectRepositoryNames(directory: string, gitMayCreate: boolean): boolean {
    const dotGit = path.posix.join(directory, '.git');
    const kind = kindOf(dotGit);
    const validRepository = kind === 'file' || kind === 'symlink' || (kind === 'directory' && kindOf(path.posix.join(dotGit, 'HEAD')) !== 'missing');
    if (validRepository) return false;
    this.add({ path: path.posix.join(directory, 'HEAD'), scope: 'subtree' });
    if (!gitMayCreate) this.add({ path: dotGit, scope: 'subtree' });
    else if (kind === 'directory') this.visitGitDirectory(dotGit, directory);
    return true;
  }

  /** The user's own configuration applies to every repository: a relative hooksPath there is relative to each work tree. */
  readGlobalConfigs(workTrees: readonly string[]): void {
    for (const global of [path.posix.join(this.#homeDirectory, '.gitconfig'), path.posix.join(this.#homeDirectory, '.config/git/config')]) {
      if (workTrees.length === 0) this.readConfig(global, undefined, 0);
      for (const workTree of workTrees) this.readConfig(global, workTree, 0);
    }
  }
}

/**
 * Everything through which git could be redirected to an attacker's configuration or hooks, for
 * the repositories of `roots` (each root's own `.git`, or the repository that holds the root),
 * the repositories their indexes link to, and the user's global configuration, read from the host
 * now (architecture §3.2, §3.7):
 *
 * - a `.git` that is a file (linked worktree, submodule) or a symbolic link: the entry itself
 *   (`exact`: a `.git` directory's contents stay writable), and the git directory it names;
 * - in every git directory found (a `.git` folder, a git file's target, its `commondir`, each
 *   submodule the configuration names): `config`, `config.worktree`, `hooks`, `commondir`,
 *   `worktrees`, `modules` (`gitRedirectionNames`), also when they do not exist yet;
 * - the `.git` of every gitlink of an index (submodules, embedded repositories) and what it names;
 * - the `.git` files of submodule work trees (`core.worktree` of each module) and of linked
 *   worktrees (`worktrees/<name>/gitdir`): replaced, they point git elsewhere;
 * - the folder named by `core.hooksPath`, and its parent when it is husky's `_` folder;
 * - in each work tree, the hook managers' configuration (`hookManagerConfigNames`);
 * - every file named by `include.path` or `includeIf.<condition>.path`, followed to depth 10;
 * - with `workspaceRoots`: `.git` and `HEAD` in the folders above each one (`protectAncestors`);
 * - with `tempRoots`: `.git` and `HEAD` in each, when it is no repository (`protectTempRoot`).
 *
 * Bounded: no folder a command can fill is listed. Paths are absolute, not yet canonical.
 */
export function findGitRedirections(roots: readonly string[], homeDirectory: string, options: FindGitRedirectionsOptions = {}): ScopedPath[] {
  const scan = new GitRedirectionScan(homeDirectory, options.statistics);
  const workTrees = roots.flatMap((root) => scan.visitRepositoryOf(root));
  const writableRoots = roots.map((root): ScopedPath => ({ path: root, scope: 'subtree' }));
  for (const root of options.workspaceRoots ?? []) scan.protectAncestors(root, writableRoots);
  const workspaces = new Set(options.workspaceRoots ?? []);
  for (const root of options.tempRoots ?? []) if (!workspaces.has(root)) scan.protectTempRoot(root);
  scan.readGlobalConfigs([...new Set(workTrees)]);
  return scan.result();
}
