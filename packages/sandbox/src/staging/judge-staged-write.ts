import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AccessDecision } from '../policy/access-decision.js';
import { checkAccess } from '../policy/check-access.js';
import { readGitConfigFile } from '../policy/git-config-entries.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { sensitiveKindOf } from '../policy/sensitive-kind-of.js';
import type { StagedEntryType, StagedRefusal } from './staged-writes.js';

/**
 * Keys a repository's own configuration may hold when a sandboxed command writes it: none of them
 * runs a program, redirects git to other configuration, hooks or a work tree, or changes how a
 * later git command reads the repository's files (`section.key`, or `section.*.key` for any
 * subsection). Everything else — `core.fsmonitor`, `core.pager`, `core.hookspath`, `alias.*`,
 * `filter.*`, `diff.*.textconv`, `include.path`, `submodule.*.update`, `credential.*` … — keeps
 * the write refused (architecture §3.7 "planted code"). An allow-list: a key git adds tomorrow is
 * refused until it is judged here.
 */
const safeGitConfigKeys = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.quotepath',
  'core.compression',
  'core.sparsecheckout',
  'core.sparsecheckoutcone',
  'core.abbrev',
  'remote.*.url',
  'remote.*.pushurl',
  'remote.*.fetch',
  'remote.*.push',
  'remote.*.tagopt',
  'remote.*.prune',
  'remote.*.mirror',
  'remote.*.promisor',
  'remote.*.partialclonefilter',
  'branch.*.remote',
  'branch.*.pushremote',
  'branch.*.merge',
  'branch.*.rebase',
  'branch.*.description',
  'submodule.*.url',
  'submodule.*.active',
  'submodule.*.branch',
  'user.name',
  'user.email',
  'init.defaultbranch',
  'extensions.objectformat',
  'extensions.partialclone',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autosetupremote',
  'fetch.prune',
  'merge.conflictstyle',
  'rebase.autosquash',
  'rebase.autostash',
  'gc.auto',
  'lfs.repositoryformatversion',
]);

function isSafeKey(section: string, subsection: string | undefined, name: string): boolean {
  return safeGitConfigKeys.has(subsection === undefined ? `${section}.${name}` : `${section}.*.${name}`);
}

/** A repository's own config file: `.git/config` or a submodule's `.git/modules/<name>/config`. */
function isRepositoryConfig(path: string): boolean {
  return /\/\.git\/config$/.test(path) || /\/\.git\/modules\/.+\/config$/.test(path);
}

/** A file in a hooks folder that git never runs as a hook: the `*.sample` files `git init` writes. */
function isHookSample(path: string): boolean {
  return /\/\.git\/(?:modules\/.+\/)?hooks\/[^/]+\.sample$/.test(path);
}

/** Whether a staged hooks folder holds a `*.sample` file (what `git init` writes there). */
function holdsSamples(staged: string | undefined): boolean {
  if (staged === undefined) return false;
  try {
    return fs.readdirSync(staged).some((name) => name.endsWith('.sample'));
  } catch {
    return false;
  }
}

/** Whether every key of the staged config file is one that cannot run or redirect anything. */
function configRunsNothing(staged: string): boolean {
  try {
    if (!fs.lstatSync(staged).isFile()) return false;
  } catch {
    return false;
  }
  const parse = readGitConfigFile(staged);
  // A file the reader cannot trust as git reads it is refused (fail closed).
  return parse.trusted && parse.entries.every((entry) => isSafeKey(entry.section, entry.subsection, entry.name));
}

/**
 * The judge of staged writes (architecture §3.10): `checkAccess(policy, path, 'write', 'process')`,
 * the rule the file tools obey, with what only the final state can tell:
 *
 * - a folder is judged by what lands in it: creating or removing one that holds protected entries
 *   is allowed, each entry inside is judged on its own (a new repository gets its objects and refs;
 *   its hooks stay out);
 * - a repository's own `config` (at any depth) may be written when its new content sets only keys
 *   that run nothing and redirect nothing (`git init`, `clone`, `remote add`, `branch -u`, `config
 *   user.email` work; `core.fsmonitor`, `core.pager`, an `include` do not);
 * - `*.sample` files in a hooks folder, which git never runs, may be written.
 *
 * Deletions of protected entries stay refused: removing `.git/config` or a hook is also a change
 * of what git runs.
 */
export function judgeStagedWrite(policy: SandboxPolicy, path: string, operation: StagedRefusal['operation'], staged: string | undefined, type: StagedEntryType | undefined): AccessDecision {
  const decision = checkAccess(policy, path, 'write', 'process', { tool: 'bash' });
  if (decision.allowed) {
    const judged = judgeGitDirectoryByContent(policy, decision, path, operation, staged, type);
    if (!judged.allowed || operation === 'delete' || type === 'directory') return judged;
    if (isRepositoryFileByContent(path) && hasOtherNames(staged)) return refusedAsHardLink(path);
    const sourced = sourcedByEnvrc(path);
    if (sourced !== undefined && !granted(policy, path)) return refusedAsGitDirectory(decision, path, sourced);
    return judged;
  }
  const exception = judgeException(policy, decision, path, operation, staged, type);
  // A protected file allowed by its content (a config that runs nothing, a hook sample) is never a
  // second name of another file: the host would get a hard link between it and a file any later
  // write may change in place (`ln .git/config cfg`). Written as its own file, it arrives.
  if (exception.allowed && type === 'file' && operation !== 'delete' && hasOtherNames(staged)) return refusedAsHardLink(path);
  return exception;
}

/** Whether a staged file has another name (a hard link the command made, or one copied up with it). */
function hasOtherNames(staged: string | undefined): boolean {
  if (staged === undefined) return false;
  try {
    const stats = fs.lstatSync(staged);
    return stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

function refusedAsHardLink(path: string): AccessDecision {
  const message = `Permission denied: ${path} is protected and the command made it a second name of another file (a hard link): on the host a write to the other name would change it. Write it as a file of its own (cp, not ln). To get access, call bash again with sandboxPermissions ${JSON.stringify({ paths: [{ path, access: 'write', scope: 'exact' }] })} and a one-line justification; the user will be asked.`;
  return { allowed: false, path, access: 'write', tier: 'sensitive', sandboxDenied: true, message, suggestedGrant: { path, access: 'write', scope: 'exact' } };
}

function granted(policy: SandboxPolicy, path: string): boolean {
  return policy.grants.some((grant) => grant.access === 'write' && (grant.path === path || (grant.scope === 'subtree' && path.startsWith(`${grant.path}/`))));
}

/** A `config`, `HEAD`, `commondir` … that the by-content rules judged as a repository's (its folder holds HEAD). */
function isRepositoryFileByContent(path: string): boolean {
  return /\/(?:config|HEAD|config\.worktree)$/.test(path) && holds(path.slice(0, path.lastIndexOf('/')) || '/', undefined, 'HEAD');
}

/** The by-rule exceptions for a path `checkAccess` refused (folders, a repository's config, hook samples, a bare HEAD). */
function judgeException(policy: SandboxPolicy, decision: Extract<AccessDecision, { allowed: false }>, path: string, operation: StagedRefusal['operation'], staged: string | undefined, type: StagedEntryType | undefined): AccessDecision {
  const allow = (): AccessDecision => ({ allowed: true, path, access: 'write', tier: decision.tier });
  if (type === 'directory' && decision.tier === 'writable-root' && !decision.sandboxDenied) return allow();
  // The folders on the way to a write grant whose parents did not exist: the grant is the user's
  // answer for the path below them; what else lands in them is judged entry by entry.
  if (type === 'directory' && operation === 'create' && decision.tier !== 'hard-protected' && policy.grants.some((grant) => grant.access === 'write' && grant.path.startsWith(`${path}/`))) return allow();
  // A repository's `.git` folder (new, or emptied of what the rules allow to remove): what is inside is judged entry by entry.
  if (type === 'directory' && decision.tier === 'sensitive' && sensitiveKindOf(policy, path) === 'git-file') return allow();
  // A repository's hooks folder itself (`git init` makes it): each file in it is judged on its own
  // (the samples git never runs arrive, a hook does not).
  // (Only with something it may hold: a hooks folder of refused hooks alone stays out whole.)
  if (type === 'directory' && operation === 'create' && decision.tier === 'sensitive' && /\/hooks$/.test(path) && holdsSamples(staged) && sensitiveKindOf(policy, path) === 'git-hooks') return allow();
  if (decision.tier !== 'sensitive' || operation === 'delete' || staged === undefined || type !== 'file') return decision;
  const kind = sensitiveKindOf(policy, path);
  if (isHookSample(path) || (kind === 'git-hooks' && /\/hooks\/[^/]+\.sample$/.test(path))) return allow();
  if ((isRepositoryConfig(path) || (kind === 'git-config' && path.endsWith('/config'))) && configRunsNothing(staged)) return allow();
  // A HEAD beside a config that runs nothing (`git init --bare`): the config is judged on its own.
  if (kind === 'git-file' && path.endsWith('/HEAD') && !path.includes('/.git/')) {
    const config = `${path.slice(0, path.lastIndexOf('/'))}/config`;
    const stagedConfig = `${staged.slice(0, staged.lastIndexOf('/'))}/config`;
    const judged = fs.existsSync(stagedConfig) ? stagedConfig : config;
    if (configRunsNothing(judged)) return allow();
  }
  return decision;
}

/** Whether `name` exists in `folder` on the host or, staged, beside `stagedSibling`'s upper-layer folder. */
function holds(hostFolder: string, stagedFolder: string | undefined, name: string): boolean {
  for (const folder of stagedFolder === undefined ? [hostFolder] : [stagedFolder, hostFolder]) {
    try {
      const stats = fs.lstatSync(`${folder}/${name}`, { throwIfNoEntry: false });
      // A whiteout in the upper layer (a character device 0/0) is a removal, not an entry.
      if (stats !== undefined && !(stats.isCharacterDevice() && stats.rdev === 0)) return true;
    } catch {
      // ENOTDIR, EACCES: not there
    }
  }
  return false;
}

function refusedAsGitDirectory(decision: AccessDecision, path: string, why: string): AccessDecision {
  const message = `Permission denied: ${path} is ${why} (changing it runs code outside the sandbox later). To get access, call bash again with sandboxPermissions ${JSON.stringify({ paths: [{ path, access: 'write', scope: 'exact' }] })} and a one-line justification; the user will be asked.`;
  return { allowed: false, path, access: 'write', tier: 'sensitive', sandboxDenied: true, message, suggestedGrant: { path, access: 'write', scope: 'exact' } };
}

/**
 * git takes any folder that holds `HEAD` (with `objects/` and `refs/`) for a repository — a bare
 * one, found by walking up from where the user runs git — so its `config`, `hooks/`, `commondir`
 * and `config.worktree` run or redirect programs whatever the folder is called. The kinds of
 * tier 3 name them under `.git/`; here they are judged in every folder that holds a `HEAD` after
 * the call, and a `HEAD` is judged by the folder it would make a repository of. A grant for the
 * exact path (as for `.git/config`) allows it.
 */
function judgeGitDirectoryByContent(policy: SandboxPolicy, decision: AccessDecision, path: string, operation: StagedRefusal['operation'], staged: string | undefined, type: StagedEntryType | undefined): AccessDecision {
  if (operation === 'delete' || path.includes('/.git/')) return decision;
  if (policy.grants.some((grant) => grant.access === 'write' && (grant.path === path || (grant.scope === 'subtree' && path.startsWith(`${grant.path}/`))))) return decision;
  const slash = path.lastIndexOf('/');
  const folder = path.slice(0, slash) || '/';
  const name = path.slice(slash + 1);
  const stagedFolder = staged === undefined ? undefined : staged.slice(0, staged.lastIndexOf('/'));
  // git follows `commondir` (a worktree's) and `gitdir` to another repository's config and hooks:
  // one call may write it where no HEAD is yet and the next add the HEAD. Judged wherever they are.
  if ((name === 'commondir' || name === 'gitdir') && type !== 'directory') {
    return refusedAsGitDirectory(decision, path, `a ${name} file (git follows it to another repository's configuration and hooks)`);
  }
  if ((name === 'config' || name === 'config.worktree') && holds(folder, stagedFolder, 'HEAD')) {
    if (name === 'config' && type === 'file' && staged !== undefined && configRunsNothing(staged)) return decision;
    return refusedAsGitDirectory(decision, path, `the ${name} of a git repository (its folder holds HEAD)`);
  }
  // A HEAD of any type: git takes a symbolic link to a file (or a link into another repository) for one too.
  if (name === 'HEAD' && type !== 'directory') {
    const config = holds(folder, stagedFolder, 'config');
    const configSafe = !config || (stagedFolder !== undefined && holds(stagedFolder, undefined, 'config') ? configRunsNothing(`${stagedFolder}/config`) : configRunsNothing(`${folder}/config`));
    const redirect = holds(folder, stagedFolder, 'commondir') || holds(folder, stagedFolder, 'config.worktree');
    const hooks = [stagedFolder, folder].some((place) => {
      if (place === undefined) return false;
      try {
        return fs.readdirSync(`${place}/hooks`).some((entry) => !entry.endsWith('.sample'));
      } catch {
        return false;
      }
    });
    if (!configSafe || redirect || hooks) return refusedAsGitDirectory(decision, path, 'the HEAD that would make its folder a git repository whose configuration or hooks run programs');
  }
  // A hooks folder of a folder that holds HEAD, at any depth below it.
  const parts = path.split('/');
  for (let index = parts.length - 2; index >= 1; index -= 1) {
    if (parts[index] !== 'hooks') continue;
    const repository = parts.slice(0, index).join('/') || '/';
    const stagedRepository = staged === undefined ? undefined : staged.split('/').slice(0, staged.split('/').length - (parts.length - index)).join('/');
    if (!holds(repository, stagedRepository, 'HEAD')) continue;
    if (type === 'directory' || (type === 'file' && /\.sample$/.test(name))) return decision;
    return refusedAsGitDirectory(decision, path, 'a hook of a git repository (its folder holds HEAD)');
  }
  return decision;
}


/** direnv's commands that run or load another file, and what they load when given no name. */
const envrcLoaders = new Map<string, string | undefined>([
  ['source_env', undefined],
  ['source_env_if_exists', undefined],
  ['dotenv', '.env'],
  ['dotenv_if_exists', '.env'],
  ['source', undefined],
  ['.', undefined],
]);

const envrcTargetsCache = new Map<string, { readonly identity: string; readonly targets: ReadonlySet<string>; readonly unresolved: boolean }>();

/**
 * What the `.envrc` at `envrc` loads: the files its `source_env`, `dotenv`, `source` … name,
 * resolved from its folder (as direnv runs it), each also as a folder's `.envrc`. `unresolved`:
 * a name it loads depends on a variable or a command (then every `.env*` and `.envrc*` beside it
 * counts). Undefined when there is no `.envrc` file there.
 */
function envrcTargets(envrc: string): { readonly targets: ReadonlySet<string>; readonly unresolved: boolean } | undefined {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.statSync(envrc, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stats === undefined || !stats.isFile()) return undefined;
  const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  const cached = envrcTargetsCache.get(envrc);
  if (cached?.identity === identity) return cached;
  const folder = envrc.slice(0, envrc.lastIndexOf('/')) || '/';
  const targets = new Set<string>();
  let unresolved = false;
  let text = '';
  try {
    text = fs.readFileSync(envrc, 'utf8').slice(0, 1 << 20);
  } catch {
    unresolved = true;
  }
  for (const rawLine of text.split('\n')) {
    for (const command of rawLine.replace(/(^|\s)#.*$/, '').split(/;|&&|\|\|/)) {
      const words = command.trim().split(/\s+/).filter((word) => word !== '');
      const loader = words[0];
      if (loader === undefined || !envrcLoaders.has(loader)) continue;
      const names = words.slice(1).map((word) => word.replace(/^(['"])(.*)\1$/, '$2'));
      if (names.length === 0) {
        const fallback = envrcLoaders.get(loader);
        if (fallback !== undefined) targets.add(`${folder}/${fallback}`);
        continue;
      }
      for (const name of names) {
        if (/[$`*?[~]/.test(name)) {
          unresolved = true;
          continue;
        }
        const resolved = path.posix.normalize(name.startsWith('/') ? name : `${folder}/${name}`);
        targets.add(resolved);
        targets.add(`${resolved}/.envrc`);
      }
    }
  }
  const entry = { identity, targets, unresolved };
  envrcTargetsCache.set(envrc, entry);
  return entry;
}

/**
 * Why `target` is a file a protected `.envrc` loads (so that writing it changes what direnv runs at
 * the next `cd`, with no new `direnv allow`), or undefined: a file an `.envrc` in one of its folders
 * names in `source_env`, `source_env_if_exists`, `dotenv`, `source` … (`dotenv` with no name:
 * `.env`; `source_env_if_exists .envrc.local`: `.envrc.local`). An `.envrc.*` no `.envrc` loads is
 * an ordinary file, as for the file tools (the parity corpus holds both to one answer).
 */
function sourcedByEnvrc(target: string): string | undefined {
  const name = target.slice(target.lastIndexOf('/') + 1);
  for (let folder = target.slice(0, target.lastIndexOf('/')) || '/'; ; folder = folder.slice(0, folder.lastIndexOf('/')) || '/') {
    const loaded = envrcTargets(`${folder === '/' ? '' : folder}/.envrc`);
    if (loaded !== undefined) {
      const beside = target.slice(0, target.lastIndexOf('/')) === folder;
      if (loaded.targets.has(target) || (loaded.unresolved && beside && name.startsWith('.env'))) {
        return `a file ${folder === '/' ? '' : folder}/.envrc loads (direnv runs it at the next cd, with no new direnv allow)`;
      }
    }
    if (folder === '/') return undefined;
  }
}
