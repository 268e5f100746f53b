import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalizePathSync } from './canonicalize-path.js';
import { isGitInclude, parseGitConfig, type GitConfigEntry } from './git-config-entries.js';
import { configPath, gitFileTarget, kindOf, maximumGitFileBytes, realDirectory } from './git-files.js';
import { hookManagerConfigNames, sensitiveNameRules, type SensitiveKind, type SensitiveNameRule } from './git-sensitive-names.js';
import { isInsideScopedPath } from './is-inside-scoped-path.js';
import { foldLetterCase } from './letter-case.js';
import type { ScopedPath } from './sandbox-layout.js';
import type { LetterCase } from './sandbox-policy.js';

/**
 * Tier 3 by kind (architecture §3.10), as a layout carries it: the name rules matched at any depth
 * in every writable region, and whether the folder each repository's `core.hooksPath` names is
 * protected too (found per repository when a write is judged).
 */
export interface SensitiveKindRules {
  readonly names: readonly SensitiveNameRule[];
  readonly repositoryHooksFolders: boolean;
}

/** The rules every derived layout carries: the one table, and every repository's hooks folder. */
export const defaultSensitiveKindRules: SensitiveKindRules = Object.freeze({ names: sensitiveNameRules, repositoryHooksFolders: true });

/** One kind found for a path: which, and the entry it protects (the path itself or an ancestor). */
export interface SensitiveKindMatch {
  readonly kind: SensitiveKind;
  /** The protected entry (`/ws/a/.git/hooks`): the path is this entry or below it. */
  readonly entry: string;
}

interface CompiledNames {
  /** First component of a rule (folded when insensitive) → the rules starting with it. */
  readonly byFirst: ReadonlyMap<string, readonly SensitiveNameRule[]>;
  /** Cheap pre-test: does any first component occur in the path at all? */
  readonly mention: RegExp;
}

const compiled = new WeakMap<readonly SensitiveNameRule[], Map<LetterCase, CompiledNames>>();

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

function compile(rules: readonly SensitiveNameRule[], letterCase: LetterCase): CompiledNames {
  let byCase = compiled.get(rules);
  if (byCase === undefined) {
    byCase = new Map();
    compiled.set(rules, byCase);
  }
  let result = byCase.get(letterCase);
  if (result === undefined) {
    const byFirst = new Map<string, SensitiveNameRule[]>();
    for (const rule of rules) {
      const first = rule.names[0];
      if (first === undefined) continue;
      const key = letterCase === 'insensitive' ? foldLetterCase(first) : first;
      byFirst.set(key, [...(byFirst.get(key) ?? []), rule]);
    }
    const alternatives = [...byFirst.keys()].map(escapeRegExp).join('|');
    result = { byFirst, mention: new RegExp(`/(?:${alternatives === '' ? '(?!)' : alternatives})(?:/|$)`, letterCase === 'insensitive' ? 'i' : '') };
    byCase.set(letterCase, result);
  }
  return result;
}

/**
 * The name rules that match `canonicalPath`, each with its entry, outermost first. Pure string
 * work over the path's components (no file-system access): `/ws/a/b/.git/hooks/x` →
 * `git-hooks` at `/ws/a/b/.git/hooks`. `insensitive` folds ASCII letter case (`.GIT/Hooks`).
 */
export function matchSensitiveNames(canonicalPath: string, rules: readonly SensitiveNameRule[], letterCase: LetterCase): SensitiveKindMatch[] {
  const { byFirst, mention } = compile(rules, letterCase);
  if (!mention.test(canonicalPath)) return [];
  const subject = letterCase === 'insensitive' ? foldLetterCase(canonicalPath) : canonicalPath;
  const components = subject.split('/');
  const matches: SensitiveKindMatch[] = [];
  // components[0] is '' (the path is absolute); a component at index i ends at offset `ends[i]`.
  let offset = 0;
  const ends: number[] = [];
  for (const component of components) {
    offset += component.length;
    ends.push(offset);
    offset += 1;
  }
  for (let index = 1; index < components.length; index += 1) {
    const candidates = byFirst.get(components[index] as string);
    if (candidates === undefined) continue;
    for (const rule of candidates) {
      const last = index + rule.names.length - 1;
      if (last >= components.length) continue;
      if (rule.scope === 'exact' && last !== components.length - 1) continue;
      let same = true;
      for (let part = 1; part < rule.names.length && same; part += 1) {
        const name = rule.names[part] as string;
        same = components[index + part] === (letterCase === 'insensitive' ? foldLetterCase(name) : name);
      }
      if (same) matches.push({ kind: rule.kind, entry: canonicalPath.slice(0, ends[last]) });
    }
  }
  return matches;
}

/** A configuration file's text; `undefined` when it does not exist; `unreadable` when it exists but cannot be read whole. */
function readConfigText(file: string): string | undefined | 'unreadable' {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : 'unreadable';
  }
  if (!stats.isFile() || stats.size > maximumGitFileBytes) return 'unreadable';
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return 'unreadable';
  }
}

/** Entries of a configuration file; `unreadable` when the reader cannot take it (fail closed). */
function readConfigEntries(file: string): GitConfigEntry[] | undefined | 'unreadable' {
  const text = readConfigText(file);
  if (text === undefined || text === 'unreadable') return text;
  const parse = parseGitConfig(text);
  // A file git itself refuses, or one this reader cannot vouch for: fail closed.
  return parse.trusted ? [...parse.entries] : 'unreadable';
}

const maximumIncludeDepth = 10; // git's own limit for include chains

/**
 * The `core.hooksPath` folders one configuration file (and what it includes, every `includeIf`
 * condition taken as true) names for the work tree `workTree`; `unreadable` when any of them exists
 * but cannot be read or parsed.
 */
function hooksFoldersOf(file: string, workTree: string, homeDirectory: string | undefined, depth: number, seen: Set<string>): string[] | 'unreadable' {
  if (depth > maximumIncludeDepth || seen.has(file)) return [];
  seen.add(file);
  const entries = readConfigEntries(file);
  if (entries === 'unreadable') return 'unreadable';
  const folders: string[] = [];
  for (const entry of entries ?? []) {
    if (entry.section === 'core' && entry.subsection === undefined && entry.name === 'hookspath') {
      const hooks = configPath(entry.value, workTree, homeDirectory ?? '/');
      if (hooks === undefined) continue;
      folders.push(hooks);
      // husky >= 9: hooksPath is `.husky/_`, whose scripts run the user's `.husky/<hook>`.
      if (path.posix.basename(hooks) === '_') folders.push(path.posix.dirname(hooks));
    } else if (isGitInclude(entry)) {
      const included = configPath(entry.value, path.posix.dirname(file), homeDirectory ?? '/');
      if (included === undefined) continue;
      const more = hooksFoldersOf(included, workTree, homeDirectory, depth + 1, seen);
      if (more === 'unreadable') return 'unreadable';
      folders.push(...more);
    }
  }
  return folders;
}

/** The configuration files git reads for the repository whose `.git` is `dotGit`. */
function configurationFilesOf(dotGit: string, homeDirectory: string | undefined): string[] {
  const kind = kindOf(dotGit);
  const gitDirectory = kind === 'directory' ? dotGit : kind === 'file' ? gitFileTarget(dotGit) : kind === 'symlink' ? realDirectory(dotGit) : undefined;
  const files: string[] = [];
  if (gitDirectory !== undefined) {
    files.push(path.posix.join(gitDirectory, 'config'), path.posix.join(gitDirectory, 'config.worktree'));
    const common = readConfigText(path.posix.join(gitDirectory, 'commondir'));
    const commonDirectory = typeof common === 'string' ? common.split(/\r?\n/)[0]?.trim() : undefined;
    if (commonDirectory !== undefined && commonDirectory !== '') files.push(path.posix.join(path.posix.resolve(gitDirectory, commonDirectory), 'config'));
  }
  if (homeDirectory !== undefined) files.push(path.posix.join(homeDirectory, '.gitconfig'), path.posix.join(homeDirectory, '.config/git/config'));
  return files;
}

function isInside(subject: string, folder: string, letterCase: LetterCase): boolean {
  if (letterCase === 'insensitive') return isInsideScopedPath(foldLetterCase(subject), { path: foldLetterCase(folder), scope: 'subtree' });
  return isInsideScopedPath(subject, { path: folder, scope: 'subtree' });
}

/**
 * The `hooks-path` and `hook-manager-config` kinds of `canonicalPath`: for every repository whose
 * work tree holds the path (a `.git` entry in the path itself or a folder above it, up to and
 * including `top`), the folder its `core.hooksPath` names (from its config, `config.worktree`, the
 * `commondir`'s config, the user's global config, and every file they include), and the hook
 * managers' configuration in the work tree (`hookManagerConfigNames`). A configuration that exists
 * but cannot be read or parsed makes the path itself protected (fail closed). Reads the host now,
 * every call: nothing is cached, so a change made since is seen. One `lstat` per folder when no
 * `.git` is found.
 */
export function findRepositoryHooksFolders(canonicalPath: string, top: string, homeDirectory: string | undefined, letterCase: LetterCase): SensitiveKindMatch[] {
  const matches: SensitiveKindMatch[] = [];
  for (let directory = canonicalPath; ; directory = path.posix.dirname(directory)) {
    const hooks = repositoryHooksAt(directory, homeDirectory);
    if (hooks.unreadable) matches.push({ kind: 'hooks-path', entry: canonicalPath });
    for (const location of hooks.locations) {
      if (isInside(canonicalPath, location, letterCase)) matches.push({ kind: 'hooks-path', entry: location });
    }
    if (hooks.repository) {
      const managed = hookManagerEntryOf(canonicalPath, directory, letterCase);
      if (managed !== undefined) matches.push({ kind: 'hook-manager-config', entry: managed });
    }
    if (directory === top || directory === '/' || !isInsideScopedPath(directory, { path: top, scope: 'subtree' })) break;
  }
  return matches.sort((a, b) => a.entry.length - b.entry.length);
}

/** What the repository whose work tree is `directory` (if any) names as hooks folders: each spelling, and whether a config could not be read. */
interface RepositoryHooks {
  /** Whether `directory` holds a `.git` entry (it is a work tree). */
  readonly repository: boolean;
  readonly locations: readonly string[];
  readonly unreadable: boolean;
}

const noRepository: RepositoryHooks = Object.freeze({ repository: false, locations: [], unreadable: false });

/** `hookManagerConfigNames` by first component (folded when insensitive) → the whole relative names. */
const hookManagerNames = new Map<LetterCase, ReadonlyMap<string, readonly string[]>>();

function hookManagerNamesFor(letterCase: LetterCase): ReadonlyMap<string, readonly string[]> {
  let byFirst = hookManagerNames.get(letterCase);
  if (byFirst === undefined) {
    const built = new Map<string, string[]>();
    for (const name of hookManagerConfigNames) {
      const spelled = letterCase === 'insensitive' ? foldLetterCase(name) : name;
      const first = spelled.split('/')[0] as string;
      built.set(first, [...(built.get(first) ?? []), spelled]);
    }
    byFirst = built;
    hookManagerNames.set(letterCase, byFirst);
  }
  return byFirst;
}

/**
 * The hook manager's configuration entry of the work tree `workTree` that holds `canonicalPath`
 * (the path itself or an ancestor below `workTree`), if any: a lookup of the path's first
 * components, whatever the number of names.
 */
function hookManagerEntryOf(canonicalPath: string, workTree: string, letterCase: LetterCase): string | undefined {
  const prefix = workTree === '/' ? '/' : `${workTree}/`;
  if (canonicalPath.length <= prefix.length || !canonicalPath.startsWith(prefix)) return undefined;
  const relative = canonicalPath.slice(prefix.length);
  const spelled = letterCase === 'insensitive' ? foldLetterCase(relative) : relative;
  const candidates = hookManagerNamesFor(letterCase).get(spelled.split('/', 1)[0] as string);
  const name = candidates?.find((candidate) => spelled === candidate || spelled.startsWith(`${candidate}/`));
  return name === undefined ? undefined : `${prefix}${relative.slice(0, name.length)}`;
}

/**
 * Folders already looked at during one judgment pass (`withRepositoryScan`): a pass over many
 * changed paths (a call's staged writes) reads each folder's repository once, not once per path.
 * Outside a pass nothing is kept, so a change made between two calls is always seen.
 */
let scanCache: Map<string, RepositoryHooks> | undefined;

/** Runs `pass` with the folders it looks at read once each (and forgotten when it returns). */
export function withRepositoryScan<T>(pass: () => T): T {
  const outer = scanCache;
  scanCache = outer ?? new Map();
  try {
    return pass();
  } finally {
    scanCache = outer;
  }
}

function repositoryHooksAt(directory: string, homeDirectory: string | undefined): RepositoryHooks {
  const key = `${directory}\0${homeDirectory ?? ''}`;
  const known = scanCache?.get(key);
  if (known !== undefined) return known;
  let hooks = noRepository;
  const dotGit = directory === '/' ? '/.git' : `${directory}/.git`;
  if (kindOf(dotGit) !== 'missing') {
    const locations: string[] = [];
    let unreadable = false;
    for (const file of configurationFilesOf(dotGit, homeDirectory)) {
      const folders = hooksFoldersOf(file, directory, homeDirectory, 0, new Set());
      if (folders === 'unreadable') {
        unreadable = true;
        continue;
      }
      for (const folder of folders) {
        const canonical = canonicalizePathSync(folder, { cwd: '/', intent: 'may-create' });
        for (const location of new Set([folder, ...(canonical.ok ? [canonical.path] : [])])) locations.push(location);
      }
    }
    hooks = { repository: true, locations, unreadable };
  }
  scanCache?.set(key, hooks);
  return hooks;
}

/** The deepest entry of `regions` that holds `canonicalPath` (the path itself for an exact entry), if any. */
export function deepestRegionOf(canonicalPath: string, regions: readonly ScopedPath[]): ScopedPath | undefined {
  let deepest: ScopedPath | undefined;
  for (const region of regions) {
    if (!isInsideScopedPath(canonicalPath, region)) continue;
    if (deepest === undefined || region.path.length > deepest.path.length) deepest = region;
  }
  return deepest;
}

/** The outermost entry of `regions` that holds `canonicalPath`: where the walk for repositories stops. */
export function outermostRegionOf(canonicalPath: string, regions: readonly ScopedPath[]): ScopedPath | undefined {
  let outermost: ScopedPath | undefined;
  for (const region of regions) {
    if (!isInsideScopedPath(canonicalPath, region)) continue;
    if (outermost === undefined || region.path.length < outermost.path.length) outermost = region;
  }
  return outermost;
}

/**
 * Whether a kind entry lies strictly below a region: only then does the region's rule leave it
 * protected. A region at or below the entry (a write grant naming `.git/hooks/pre-commit`, or
 * `.vscode` itself) reopens it — "most specific rule wins" (§3.3). Both are prefixes of the same
 * path, so comparing lengths is enough.
 */
export function isStrictlyBelow(match: SensitiveKindMatch, region: ScopedPath): boolean {
  return match.entry.length > region.path.length;
}

function entryExists(path: string): boolean {
  try {
    return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, EACCES: not there
  }
}

/**
 * git takes any folder that holds `HEAD` for a repository (a bare one, found by walking up from
 * where the user runs git), so the kinds of tier 3 hold there too, whatever the folder is called:
 * its `config`, `commondir`, `config.worktree` and `hooks/`; and a `HEAD` put beside a `config`
 * makes such a repository. Read from the host, only for those names (one or two `lstat`s); nothing
 * is cached, so a change made since is seen.
 */
export function findBareRepositoryKinds(canonicalPath: string): SensitiveKindMatch[] {
  // Inside a `.git` folder the kinds of tier 3 already say what is what.
  if (canonicalPath.includes('/.git/')) return [];
  const slash = canonicalPath.lastIndexOf('/');
  const folder = canonicalPath.slice(0, slash) || '/';
  const name = canonicalPath.slice(slash + 1);
  const inFolder = (entry: string): string => (folder === '/' ? `/${entry}` : `${folder}/${entry}`);
  const matches: SensitiveKindMatch[] = [];
  if (name === 'config' && entryExists(inFolder('HEAD'))) matches.push({ kind: 'git-config', entry: canonicalPath });
  if ((name === 'commondir' || name === 'config.worktree') && entryExists(inFolder('HEAD'))) matches.push({ kind: 'git-commondir', entry: canonicalPath });
  if (name === 'HEAD' && entryExists(inFolder('config'))) matches.push({ kind: 'git-file', entry: canonicalPath });
  const parts = canonicalPath.split('/');
  for (let index = 1; index < parts.length; index += 1) {
    if (parts[index] !== 'hooks') continue;
    const repository = parts.slice(0, index).join('/') || '/';
    if (entryExists(repository === '/' ? '/HEAD' : `${repository}/HEAD`)) matches.push({ kind: 'git-hooks', entry: parts.slice(0, index + 1).join('/') });
  }
  return matches;
}
