import type { PathScope } from './sandbox-policy.js';

/**
 * The kinds of tier 3 files that are protected by rule at any depth below a writable root
 * (architecture §3.2 tier 3, §3.10), as `sensitiveKindOf` names them:
 *
 * - `git-config`: a git directory's `config` or `config.worktree` (which programs git runs:
 *   `core.fsmonitor`, `core.pager`, `core.hooksPath`, filters, aliases …);
 * - `git-hooks`: a git directory's `hooks/` and everything in it;
 * - `git-commondir`: a git directory's `commondir` (moves config and hooks to another folder);
 * - `git-worktrees`: a git directory's `worktrees/` (each linked worktree's `commondir`, `config.worktree`);
 * - `git-modules`: a git directory's `modules/` (the git directories, config and hooks of submodules);
 * - `git-file`: the `.git` entry itself, whatever it is now (a git file or link redirects git;
 *   moving a `.git` folder away would carry its config and hooks out from under their names);
 * - `envrc`, `vscode`, `idea`: direnv's `.envrc`, editors' `.vscode/` and `.idea/` (task files run programs);
 * - `hooks-path`: the folder a repository's `core.hooksPath` names (found per repository, not by name);
 * - `hook-manager-config`: a hook manager's configuration in a repository's work tree
 *   (`hookManagerConfigNames`: pre-commit, lefthook, husky 4): the installed hooks run the commands
 *   it names (found per repository: only where the folder holds a `.git`).
 */
export type SensitiveKind =
  | 'git-config'
  | 'git-hooks'
  | 'git-commondir'
  | 'git-worktrees'
  | 'git-modules'
  | 'git-file'
  | 'envrc'
  | 'vscode'
  | 'idea'
  | 'hooks-path'
  | 'hook-manager-config';

/** One name inside a git directory through which git decides which configuration and hooks to use. */
export interface GitSensitiveName {
  readonly name: string;
  readonly kind: SensitiveKind;
  readonly reason: string;
}

/**
 * THE table of git's program-running and redirecting names inside a git directory. Everything
 * else derives from it: the names protected below every writable root (`defaultSensitiveRootEntries`),
 * the names protected in every git directory a policy scan finds (`gitRedirectionNames`), the
 * rules at any depth (`sensitiveNameRules`: the fence and the Seatbelt `regex` filters).
 * The rest of a git directory (objects, refs, index, HEAD, logs) stays writable: `git commit`
 * must work in `workspace-write` (a known peer bug).
 */
export const gitSensitiveNames: readonly GitSensitiveName[] = Object.freeze(
  [
    { name: 'hooks', kind: 'git-hooks', reason: 'git runs the programs in it (pre-commit, post-checkout …)' },
    { name: 'config', kind: 'git-config', reason: 'names programs git runs (core.fsmonitor, core.pager, core.hooksPath, filters, aliases)' },
    { name: 'commondir', kind: 'git-commondir', reason: "moves the repository's config and hooks to another folder" },
    { name: 'config.worktree', kind: 'git-config', reason: 'adds configuration like config' },
    { name: 'worktrees', kind: 'git-worktrees', reason: "each linked worktree's commondir and config.worktree" },
    { name: 'modules', kind: 'git-modules', reason: "submodules' git directories (their config and hooks), taken as found by `git submodule update`" },
  ].map((entry) => Object.freeze(entry as GitSensitiveName)),
);

/** The git directory's own name in a work tree. */
export const gitDirectoryName = '.git';

/** Names in a work tree (any folder, any depth) whose change makes a host tool run code later. */
export const workTreeSensitiveNames: readonly GitSensitiveName[] = Object.freeze(
  [
    { name: '.envrc', kind: 'envrc', reason: 'direnv runs it when a shell enters the folder' },
    { name: '.vscode', kind: 'vscode', reason: 'VS Code runs tasks and settings-named programs from it' },
    { name: '.idea', kind: 'idea', reason: 'JetBrains IDEs run run-configurations and tools from it' },
  ].map((entry) => Object.freeze(entry as GitSensitiveName)),
);

const lefthookNames = ['lefthook', '.lefthook', 'lefthook-local', '.lefthook-local'].flatMap((base) =>
  ['yml', 'yaml', 'toml', 'json', 'jsonc'].map((extension) => `${base}.${extension}`),
);

/**
 * Where hook managers read what the hooks they installed run, relative to a repository's work
 * tree: a git hook (or a global `core.hooksPath` folder) that hands over to one of them runs
 * whatever this file names at the user's next `git commit` — a hook by another name. Protected in
 * every work tree that holds a `.git` (whether the manager is installed there or globally cannot be
 * told from the repository), at any depth. Names only: what a hook manager then runs from the work
 * tree (a `repo: local` script, `package.json` scripts, `node_modules`) is the work tree's content,
 * which is the command's to write (sandbox README, known limits).
 */
export const hookManagerConfigNames: readonly string[] = Object.freeze([
  // pre-commit (pre-commit.com): `repo: local` hooks run any `entry`.
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  // lefthook: the configuration, also under `.config/`, and its script folders.
  ...lefthookNames,
  ...lefthookNames.filter((name) => !name.startsWith('.')).map((name) => `.config/${name}`),
  '.lefthook',
  '.lefthook-local',
  // husky 4 and earlier: hooks run `husky.hooks.<name>` of these (or of package.json).
  '.huskyrc',
  '.huskyrc.json',
  '.huskyrc.yaml',
  '.huskyrc.yml',
  '.huskyrc.js',
  '.huskyrc.cjs',
  'husky.config.js',
  'husky.config.cjs',
]);

/**
 * One rule of tier 3 at any depth: a sequence of path components (`['.git', 'hooks']`) matched
 * wherever it occurs in a path. `subtree`: the entry and everything below it; `exact`: the entry
 * itself only (`.git`: its contents are judged by the other rules).
 */
export interface SensitiveNameRule {
  readonly kind: SensitiveKind;
  readonly names: readonly string[];
  readonly scope: PathScope;
}

/** The rules at any depth, all derived from the two tables above. */
export const sensitiveNameRules: readonly SensitiveNameRule[] = Object.freeze([
  ...gitSensitiveNames.map((entry) => Object.freeze({ kind: entry.kind, names: Object.freeze([gitDirectoryName, entry.name]), scope: 'subtree' as const })),
  Object.freeze({ kind: 'git-file' as const, names: Object.freeze([gitDirectoryName]), scope: 'exact' as const }),
  ...workTreeSensitiveNames.map((entry) => Object.freeze({ kind: entry.kind, names: Object.freeze([entry.name]), scope: 'subtree' as const })),
]);

/** The names relative to a root (`.git/hooks`, …, `.envrc`) for the place-based list below every writable root. */
export const sensitiveRootEntryNames: readonly string[] = Object.freeze([
  ...gitSensitiveNames.map((entry) => `${gitDirectoryName}/${entry.name}`),
  ...workTreeSensitiveNames.map((entry) => entry.name),
]);
