import type { RuleMatch } from './rule-match.js';

/** What a check needs of one `git <subcommand> …` line: its words after the subcommand. */
export interface GitArguments {
  /** Every word after the subcommand (`undefined` for a word only known at run time). */
  readonly rest: readonly (string | undefined)[];
  /** The words before `--`. */
  readonly options: readonly (string | undefined)[];
  /** Single letters of short option clusters (`-nf` is `-n -f`). */
  readonly letters: string;
  /** Options before `--` that do not start with `-`. */
  readonly operands: readonly string[];
  /** Whether `git checkout --orphan`/`git switch --orphan` ran earlier in the command line. */
  readonly afterOrphanCheckout: boolean;
  /** Whether one of the options is `name` or `name=…`. */
  has(...names: string[]): boolean;
}

export function gitArguments(rest: readonly (string | undefined)[], afterOrphanCheckout: boolean): GitArguments {
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const letters = options.filter((text): text is string => text !== undefined && /^-[A-Za-z]+$/.test(text)).map((text) => text.slice(1)).join('');
  return {
    rest,
    options,
    letters,
    operands: options.filter((text): text is string => text !== undefined && !text.startsWith('-')),
    afterOrphanCheckout,
    has: (...names) => options.some((text) => text !== undefined && names.some((name) => text === name || text.startsWith(`${name}=`))),
  };
}

type GitCheck = (git: GitArguments) => RuleMatch[];

/** A pathspec that covers the whole work tree or the current folder: `.`, `:/`, `*`. */
function isBroadPathspec(text: string | undefined): boolean {
  return text !== undefined && /^(?:\.\/?|\.\/\*|:\/?|:\/\*|:\(top\)|\*)$/.test(text);
}

function pathspecs(git: GitArguments): readonly (string | undefined)[] {
  return git.rest.includes('--') ? git.rest.slice(git.rest.indexOf('--') + 1) : git.operands;
}

const forcePush: RuleMatch = {
  rule: 'git-force-push',
  reason: 'A force push (--force, -f, --force-with-lease, a +refspec, or --mirror) overwrites commits on the remote that others may depend on. Push without force, or ask the user to confirm the history rewrite.',
};
const remoteDelete: RuleMatch = {
  rule: 'git-remote-delete',
  reason: 'This push deletes branches or tags on the remote (--delete, :branch, --prune, --mirror), for everyone who uses it. Ask the user to confirm, or leave the remote refs alone.',
};

function discard(what: string): RuleMatch[] {
  return [{ rule: 'git-discard-work', reason: `${what} Commit or stash first (git stash), or ask the user to confirm.` }];
}

function push(git: GitArguments): RuleMatch[] {
  if (/n/.test(git.letters) || git.has('--dry-run')) return [];
  const matches: RuleMatch[] = [];
  const forced = /f/.test(git.letters) || git.has('--force', '--force-with-lease', '--force-if-includes', '--mirror');
  const plusRefspec = git.rest.some((text) => text !== undefined && text.startsWith('+') && text.length > 1);
  if (forced || plusRefspec) matches.push(forcePush);
  const deletes = /d/.test(git.letters) || git.has('--delete', '--prune', '--mirror') || git.rest.some((text) => text !== undefined && /^:[^:]/.test(text));
  if (deletes) matches.push(remoteDelete);
  return matches;
}

function reset(git: GitArguments): RuleMatch[] {
  if (!git.options.includes('--hard')) return [];
  return [{ rule: 'git-hard-reset', reason: 'git reset --hard discards all uncommitted changes in the working tree for good. Use git stash, or git reset --soft/--mixed, unless the user asked to throw the changes away.' }];
}

function clean(git: GitArguments): RuleMatch[] {
  const dryRun = /n/.test(git.letters) || git.options.includes('--dry-run');
  const forced = /f/.test(git.letters) || git.options.includes('--force');
  if (dryRun || !forced || !/[dxX]/.test(git.letters)) return [];
  return [{
    rule: 'git-clean',
    reason: 'git clean -f with -d/-x/-X permanently deletes untracked directories or ignored files (build outputs, .env files, local data). Run git clean -n first to list what would go, and delete only what is needed.',
  }];
}

function checkout(git: GitArguments): RuleMatch[] {
  if (/f/.test(git.letters) || git.has('--force') || pathspecs(git).some(isBroadPathspec)) {
    return discard('git checkout with . (or -f) overwrites every uncommitted change in the working tree with the committed version.');
  }
  return [];
}

function restore(git: GitArguments): RuleMatch[] {
  const stagedOnly = (/S/.test(git.letters) || git.has('--staged')) && !(/W/.test(git.letters) || git.has('--worktree'));
  if (stagedOnly || !pathspecs(git).some(isBroadPathspec)) return [];
  return discard('git restore of the whole working tree overwrites every uncommitted change with the committed version.');
}

/**
 * `branch -D`, `-d --force`; and a forced rename or copy over a branch (`-M`/`-C`, `--move
 * --force`): with two names it replaces the second, whose commits and reflog go with it; with one
 * name only after `checkout --orphan` (the "replace the history" recipe: `git checkout --orphan
 * new && … && git branch -M main`). `git branch -M main` alone renames the current branch.
 */
function branch(git: GitArguments): RuleMatch[] {
  const forced = /f/.test(git.letters) || git.has('--force');
  if (/D/.test(git.letters) || ((/d/.test(git.letters) || git.has('--delete')) && forced)) {
    return discard('git branch -D deletes a branch even when its commits are merged nowhere else.');
  }
  const replaces = /[MC]/.test(git.letters) || ((/[mc]/.test(git.letters) || git.has('--move', '--copy')) && forced);
  if (replaces && (git.operands.length >= 2 || git.afterOrphanCheckout)) {
    return discard('A forced git branch rename or copy (-M, -C) replaces the branch of that name, and the commits only it had are lost with its reflog.');
  }
  return [];
}

function stash(git: GitArguments): RuleMatch[] {
  return git.operands[0] === 'clear' ? discard('git stash clear deletes every stash entry, with the work saved in them.') : [];
}

function rewrite(name: string): GitCheck {
  return () => discard(`git ${name} rewrites the whole history of the repository; the old commits become unreachable.`);
}

// Any explicit expiry date counts (`now`, `1.minute.ago`, `"2 days ago"`, a timestamp): the
// analysis judges that the reflog is expired on request, not how the date is spelled. Only
// `never`/`false` keep everything. `--expire DATE` as two words counts too.
function explicitExpiry(git: GitArguments, ...names: string[]): boolean {
  return git.options.some((text, index) => {
    if (text === undefined) return false;
    const name = names.find((candidate) => text === candidate || text.startsWith(`${candidate}=`));
    if (name === undefined) return false;
    const value = text === name ? git.options[index + 1] : text.slice(name.length + 1);
    return value === undefined || !/^(?:never|false)$/i.test(value);
  });
}

function reflog(git: GitArguments): RuleMatch[] {
  const expires = git.operands[0] === 'expire' && explicitExpiry(git, '--expire', '--expire-unreachable');
  return git.operands[0] === 'delete' || expires ? discard('Expiring the reflog early removes the only record that lets lost commits be recovered.') : [];
}

// `git gc --prune=<date>` is flagged alone, not only after a reflog expiry: it deletes at once what
// the reflog no longer names (dropped stashes, branches deleted with their reflog). Any explicit
// date but `never` counts: `--prune=1.second.ago` is `now` by another spelling.
function gc(git: GitArguments): RuleMatch[] {
  return explicitExpiry(git, '--prune') ? discard('git gc --prune=<date> deletes unreachable commits older than that date at once, instead of after the usual two-week grace period.') : [];
}

function prune(git: GitArguments): RuleMatch[] {
  if (/n/.test(git.letters) || git.has('--dry-run')) return [];
  return discard('git prune deletes every unreachable object at once, including commits only the reflog still knew about.');
}

function repack(git: GitArguments): RuleMatch[] {
  const dropsUnreachable = /a/.test(git.letters) && /d/.test(git.letters) && !/A/.test(git.letters);
  return dropsUnreachable ? discard('git repack -a -d drops every unreachable object from the packs at once, with no grace period.') : [];
}

/** `update-ref -d` deletes a ref with its reflog; `--stdin` reads commands (deletions too) nobody can check here. */
function updateRef(git: GitArguments): RuleMatch[] {
  if (/d/.test(git.letters) || git.has('--delete')) return discard('git update-ref -d deletes the ref and its reflog; commits only it named are lost.');
  if (git.has('--stdin')) return discard('git update-ref --stdin runs ref updates and deletions read from its input, which cannot be checked before it runs.');
  return [];
}

function worktree(git: GitArguments): RuleMatch[] {
  const forced = /f/.test(git.letters) || git.has('--force');
  return git.operands[0] === 'remove' && forced ? discard('git worktree remove --force deletes a linked worktree with its uncommitted and untracked changes.') : [];
}

function submodule(git: GitArguments): RuleMatch[] {
  const forced = /f/.test(git.letters) || git.has('--force');
  return git.operands[0] === 'deinit' && forced ? discard('git submodule deinit --force deletes the submodule\'s working tree with its local changes.') : [];
}

/** The subcommands with a check; git runs its own command for these, never an alias of the same name. */
export const gitSubcommandChecks: ReadonlyMap<string, GitCheck> = new Map<string, GitCheck>([
  ['push', push],
  // The plumbing under push: the same force (`--force`, `+refspec`, `--mirror`) and deletions.
  ['send-pack', push],
  ['reset', reset],
  ['clean', clean],
  ['checkout', checkout],
  ['restore', restore],
  ['branch', branch],
  ['stash', stash],
  ['filter-branch', rewrite('filter-branch')],
  ['filter-repo', rewrite('filter-repo')],
  ['reflog', reflog],
  ['gc', gc],
  ['prune', prune],
  ['repack', repack],
  ['update-ref', updateRef],
  ['worktree', worktree],
  ['submodule', submodule],
]);

/** `git checkout --orphan <name>` / `git switch --orphan <name>`: a branch with no history starts. */
export function startsOrphanBranch(subcommand: string, git: GitArguments): boolean {
  return (subcommand === 'checkout' || subcommand === 'switch') && git.has('--orphan');
}
