import * as path from 'node:path';
import { describeUntrustedGitConfig, readGitConfigFile } from './git-config-entries.js';
import { kindOf, listSomeEntries } from './git-files.js';
import type { GitScanStatistics } from './git-files.js';

/**
 * The configuration keys a repository that a command made may keep (issue 23 item 1, "design by
 * class"): what `git init`, `git clone` and `git submodule absorbgitdirs` write, none of which
 * names a program. Every other key — `core.fsmonitor`, `core.pager`, `core.hooksPath`, `alias.*`,
 * `filter.*`, `diff.*`, `include.path`, `credential.helper`, `protocol.*`, `remote.*.uploadpack`,
 * and whatever git adds next — counts as configuration that may run a program: an allowlist, so
 * that the next spelling an attacker tries is refused too.
 */
const harmlessKeys: Readonly<Record<string, ReadonlySet<string>>> = {
  core: new Set(['repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks', 'worktree', 'autocrlf', 'eol', 'safecrlf', 'quotepath']),
  extensions: new Set(['objectformat']),
  remote: new Set(['url', 'pushurl', 'fetch']),
  branch: new Set(['remote', 'merge']),
  user: new Set(['name', 'email']),
  init: new Set(['defaultbranch']),
  submodule: new Set(['url', 'active']),
};

/** Sections whose keys are harmless only per name (`remote.<name>.url`), never without a subsection. */
const namedSections = new Set(['remote', 'branch', 'submodule']);

const maximumHookEntries = 256;

/**
 * The keys of the git directory's config that are not known harmless. Fails closed: a config git
 * would refuse, or that cannot be read whole, is itself a reason (what follows its bad line is
 * unknown), besides the reasons of the entries before it.
 */
function configurationReasons(gitDirectory: string, statistics: GitScanStatistics | undefined): string[] {
  const file = path.posix.join(gitDirectory, 'config');
  const kind = kindOf(file);
  if (kind === 'missing') return [];
  if (kind !== 'file') return [`its config is a ${kind === 'symlink' ? 'symbolic link' : 'folder'}`];
  const parse = readGitConfigFile(file, statistics);
  const reasons: string[] = [];
  for (const entry of parse.entries) {
    const allowed = harmlessKeys[entry.section];
    const named = namedSections.has(entry.section) === (entry.subsection !== undefined);
    if (allowed !== undefined && named && allowed.has(entry.name)) continue;
    reasons.push(`config sets ${entry.key}`);
  }
  if (!parse.trusted) reasons.push(`its config cannot be read as git reads it (${describeUntrustedGitConfig(parse)})`);
  return reasons;
}

/** Hooks git runs by name: anything in `hooks/` but git's own `*.sample` templates. */
function hookReasons(gitDirectory: string, statistics: GitScanStatistics | undefined): string[] {
  const hooks = path.posix.join(gitDirectory, 'hooks');
  const kind = kindOf(hooks);
  if (kind === 'missing') return [];
  if (kind !== 'directory') return [`its hooks is a ${kind === 'symlink' ? 'symbolic link' : 'file'}`];
  const { names, complete } = listSomeEntries(hooks, maximumHookEntries, statistics);
  const reasons = names.filter((name) => !name.endsWith('.sample')).map((name) => `hook ${name}`);
  if (!complete) reasons.push(`more than ${maximumHookEntries} entries in hooks/`);
  return reasons;
}

/** Names that bring in configuration or hooks from elsewhere (architecture §3.2 "git redirections"). */
function redirectionReasons(gitDirectory: string, statistics: GitScanStatistics | undefined): string[] {
  const reasons: string[] = [];
  for (const name of ['commondir', 'config.worktree']) {
    if (kindOf(path.posix.join(gitDirectory, name)) !== 'missing') reasons.push(`it has a ${name}`);
  }
  for (const name of ['worktrees', 'modules']) {
    if (listSomeEntries(path.posix.join(gitDirectory, name), 1, statistics).names.length > 0) reasons.push(`it has ${name}/`);
  }
  return reasons;
}

/**
 * Why a git directory that a sandboxed command could write may make the user's git run a program
 * (issue 23 item 1), or `[]` when it holds nothing of the kind. Bounded: reads one configuration
 * file and lists at most `hooks/` (256 entries) and one entry of `worktrees/` and `modules/`.
 */
export function classifyGitDirectory(gitDirectory: string, statistics?: GitScanStatistics): string[] {
  return [...configurationReasons(gitDirectory, statistics), ...hookReasons(gitDirectory, statistics), ...redirectionReasons(gitDirectory, statistics)];
}
