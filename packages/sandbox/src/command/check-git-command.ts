import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

const globalOptionsWithArgument = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);
// Subcommands checked below: git runs its own command, never an alias of the same name.
const checkedSubcommands = new Set(['push', 'reset', 'clean', 'checkout', 'restore', 'branch', 'stash', 'filter-branch', 'filter-repo', 'reflog', 'gc', 'prune', 'config']);
const maximumAliasDepth = 10;

/** What one `git …` does, as far as the analysis is concerned. */
export interface GitCommandCheck {
  readonly matches: readonly RuleMatch[];
  /** A shell alias (`alias.x = "!…"`) this command runs, to analyse as a script. */
  readonly aliasScript?: string;
  /** `git config alias.<name> <value>`: an alias defined for the commands that follow. */
  readonly definedAlias?: { readonly name: string; readonly value: string };
}

/** `-n`, `--dry-run`… as single letters of short option clusters (`-nf` is `-n -f`). */
function shortLetters(values: readonly (string | undefined)[]): string {
  return values.filter((text): text is string => text !== undefined && /^-[A-Za-z]+$/.test(text)).map((text) => text.slice(1)).join('');
}

/** A pathspec that covers the whole work tree or the current folder: `.`, `:/`, `*`. */
function isBroadPathspec(text: string | undefined): boolean {
  return text !== undefined && /^(?:\.\/?|\.\/\*|:\/?|:\/\*|:\(top\)|\*)$/.test(text);
}

/** Splits an alias value like git does (`split_cmdline`): blanks separate, quotes group. */
function splitAlias(value: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index] as string;
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
      else if (character === '\\' && quote === '"' && index + 1 < value.length) current += value[(index += 1)];
      else current += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      started = true;
    } else if (/\s/.test(character)) {
      if (started) words.push(current);
      current = '';
      started = false;
    } else {
      if (character === '\\' && index + 1 < value.length) current += value[(index += 1)];
      else current += character;
      started = true;
    }
  }
  if (started) words.push(current);
  return words;
}

function literal(text: string): ResolvedWord {
  return { value: text, pattern: text, script: text, substitutions: [] };
}

const forcePush: RuleMatch = {
  rule: 'git-force-push',
  reason: 'A force push (--force, -f, --force-with-lease, a +refspec, or --mirror) overwrites commits on the remote that others may depend on. Push without force, or ask the user to confirm the history rewrite.',
};
const remoteDelete: RuleMatch = {
  rule: 'git-remote-delete',
  reason: 'This push deletes branches or tags on the remote (--delete, :branch, --prune, --mirror), for everyone who uses it. Ask the user to confirm, or leave the remote refs alone.',
};

function discard(what: string): RuleMatch {
  return {
    rule: 'git-discard-work',
    reason: `${what} Commit or stash first (git stash), or ask the user to confirm.`,
  };
}

/**
 * Force pushes, remote deletions, `reset --hard`, `clean -f` with `-d`/`-x`/`-X`, and local
 * commands that throw away work or the history that could bring it back (§3.6). Aliases are
 * followed: `-c alias.p="push --force"` on the same command line and `aliases` defined earlier by
 * `git config alias.…`; a `!` alias is returned as `aliasScript` for the caller to analyse.
 */
export function checkGitCommand(argumentsAfterProgram: readonly ResolvedWord[], aliases: ReadonlyMap<string, string>, depth = 0): GitCommandCheck {
  const localAliases = new Map(aliases);
  let index = 0;
  while (index < argumentsAfterProgram.length) {
    const text = argumentsAfterProgram[index]?.value;
    if (text === undefined || !text.startsWith('-')) break;
    if (text === '-c') {
      const setting = argumentsAfterProgram[index + 1]?.value;
      const match = setting === undefined ? null : /^alias\.([^=]+)=(.*)$/is.exec(setting);
      if (match !== null) localAliases.set((match[1] as string).toLowerCase(), match[2] as string);
    }
    index += globalOptionsWithArgument.has(text) ? 2 : 1;
  }
  const subcommand = argumentsAfterProgram[index]?.value;
  const afterSubcommand = argumentsAfterProgram.slice(index + 1);
  if (subcommand === undefined) return { matches: [] };

  const alias = checkedSubcommands.has(subcommand) ? undefined : localAliases.get(subcommand.toLowerCase());
  if (alias !== undefined && depth < maximumAliasDepth) {
    if (alias.startsWith('!')) {
      return { matches: [], aliasScript: [alias.slice(1), ...afterSubcommand.map((word) => word.script)].join(' ') };
    }
    const expanded = [...argumentsAfterProgram.slice(0, index), ...splitAlias(alias).map(literal), ...afterSubcommand];
    return checkGitCommand(expanded, localAliases, depth + 1);
  }

  const rest = afterSubcommand.map((word) => word.value);
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const letters = shortLetters(options);
  const has = (...names: string[]): boolean => options.some((text) => text !== undefined && names.some((name) => text === name || text.startsWith(`${name}=`)));
  const operands = options.filter((text) => text !== undefined && !text.startsWith('-'));

  switch (subcommand) {
    case 'push': {
      if (/n/.test(letters) || has('--dry-run')) return { matches: [] };
      const matches: RuleMatch[] = [];
      const forced = /f/.test(letters) || has('--force', '--force-with-lease', '--force-if-includes', '--mirror');
      const plusRefspec = rest.some((text) => text !== undefined && text.startsWith('+') && text.length > 1);
      if (forced || plusRefspec) matches.push(forcePush);
      const deletes = /d/.test(letters) || has('--delete', '--prune', '--mirror') || rest.some((text) => text !== undefined && /^:[^:]/.test(text));
      if (deletes) matches.push(remoteDelete);
      return { matches };
    }
    case 'reset':
      return {
        matches: options.includes('--hard')
          ? [{ rule: 'git-hard-reset', reason: 'git reset --hard discards all uncommitted changes in the working tree for good. Use git stash, or git reset --soft/--mixed, unless the user asked to throw the changes away.' }]
          : [],
      };
    case 'clean': {
      const dryRun = /n/.test(letters) || options.includes('--dry-run');
      const forced = /f/.test(letters) || options.includes('--force');
      if (dryRun || !forced || !/[dxX]/.test(letters)) return { matches: [] };
      return {
        matches: [{
          rule: 'git-clean',
          reason: 'git clean -f with -d/-x/-X permanently deletes untracked directories or ignored files (build outputs, .env files, local data). Run git clean -n first to list what would go, and delete only what is needed.',
        }],
      };
    }
    case 'checkout': {
      const pathspecs = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : operands;
      if (/f/.test(letters) || has('--force') || pathspecs.some(isBroadPathspec)) {
        return { matches: [discard('git checkout with . (or -f) overwrites every uncommitted change in the working tree with the committed version.')] };
      }
      return { matches: [] };
    }
    case 'restore': {
      const stagedOnly = (/S/.test(letters) || has('--staged')) && !(/W/.test(letters) || has('--worktree'));
      const pathspecs = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : operands;
      if (stagedOnly || !pathspecs.some(isBroadPathspec)) return { matches: [] };
      return { matches: [discard('git restore of the whole working tree overwrites every uncommitted change with the committed version.')] };
    }
    case 'branch':
      return {
        matches: /D/.test(letters) || ((/d/.test(letters) || has('--delete')) && (/f/.test(letters) || has('--force')))
          ? [discard('git branch -D deletes a branch even when its commits are merged nowhere else.')]
          : [],
      };
    case 'stash':
      return { matches: operands[0] === 'clear' ? [discard('git stash clear deletes every stash entry, with the work saved in them.')] : [] };
    case 'filter-branch':
    case 'filter-repo':
      return { matches: [discard(`git ${subcommand} rewrites the whole history of the repository; the old commits become unreachable.`)] };
    case 'reflog': {
      const destroys = operands[0] === 'delete' || (operands[0] === 'expire' && options.some((text) => text !== undefined && /^--expire(?:-unreachable)?=(?:now|all|never)/.test(text)));
      return { matches: destroys ? [discard('Expiring the reflog now removes the only record that lets lost commits be recovered.')] : [] };
    }
    case 'gc':
      return { matches: has('--prune=now', '--prune=all') ? [discard('git gc --prune=now deletes unreachable commits at once, without the usual two-week grace period.')] : [] };
    case 'prune':
      return { matches: [discard('git prune deletes every unreachable object at once, including commits only the reflog still knew about.')] };
    case 'config': {
      // `git config [--global|--local|--file f] alias.x value` and `git config set alias.x value`.
      const positional: string[] = [];
      for (let position = 0; position < options.length; position += 1) {
        const text = options[position];
        if (text === '-f' || text === '--file' || text === '--blob' || text === '--type' || text === '--default') position += 1;
        else if (text !== undefined && !text.startsWith('-')) positional.push(text);
      }
      const [name, value] = positional[0] === 'set' ? positional.slice(1) : positional;
      if (name !== undefined && value !== undefined && /^alias\./i.test(name)) {
        return { matches: [], definedAlias: { name: name.slice('alias.'.length).toLowerCase(), value } };
      }
      return { matches: [] };
    }
    default:
      return { matches: [] };
  }
}
