import { gitArguments, gitSubcommandChecks, startsOrphanBranch } from './git-subcommand-checks.js';
import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

const globalOptionsWithArgument = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);
const maximumAliasDepth = 10;

/** What one `git …` does, as far as the analysis is concerned. */
export interface GitCommandCheck {
  readonly matches: readonly RuleMatch[];
  /** A shell alias (`alias.x = "!…"`) this command runs, to analyse as a script. */
  readonly aliasScript?: string;
  /** `git config alias.<name> <value>`: an alias defined for the commands that follow. */
  readonly definedAlias?: { readonly name: string; readonly value: string };
  /** `git checkout --orphan`/`git switch --orphan`: later forced branch renames replace history. */
  readonly startsOrphanBranch?: boolean;
}

/** What earlier commands of the same command line told the analysis about git. */
export interface GitCommandState {
  /** `git config alias.x …` earlier in the command line, for `git x` after it. */
  readonly aliases: ReadonlyMap<string, string>;
  /** A `git checkout --orphan` ran earlier in the command line. */
  readonly afterOrphanCheckout: boolean;
  /** Setting names this git gets through its environment (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_<n>`); `unknown` when only known at run time. */
  readonly environmentSettings?: readonly string[];
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

/**
 * Force pushes, remote deletions, `reset --hard`, `clean -f` with `-d`/`-x`/`-X`, and local
 * commands that throw away work or the history that could bring it back (§3.6; the checks are in
 * `git-subcommand-checks.ts`). Aliases are followed: `-c alias.p="push --force"` on the same
 * command line and aliases defined earlier by `git config alias.…`; a `!` alias is returned as
 * `aliasScript` for the caller to analyse.
 */
export function checkGitCommand(argumentsAfterProgram: readonly ResolvedWord[], state: GitCommandState, depth = 0): GitCommandCheck {
  const localAliases = new Map(state.aliases);
  const settings: string[] = [...(state.environmentSettings ?? [])];
  let index = 0;
  while (index < argumentsAfterProgram.length) {
    const text = argumentsAfterProgram[index]?.value;
    if (text === undefined || !text.startsWith('-')) break;
    if (text === '-c' || text === '--config-env') {
      const setting = argumentsAfterProgram[index + 1]?.value;
      // A setting only known at run time may be anything, an expiry included.
      settings.push(setting ?? 'unknown');
      const match = setting === undefined ? null : /^alias\.([^=]+)=(.*)$/is.exec(setting);
      if (match !== null) localAliases.set((match[1] as string).toLowerCase(), match[2] as string);
    } else if (text.startsWith('-c') && text.length > 2) settings.push(text.slice(2));
    else if (text.startsWith('--config-env=')) settings.push(text.slice('--config-env='.length));
    index += globalOptionsWithArgument.has(text) ? 2 : 1;
  }
  const subcommand = argumentsAfterProgram[index]?.value;
  const afterSubcommand = argumentsAfterProgram.slice(index + 1);
  if (subcommand === undefined) return { matches: [] };

  const checked = gitSubcommandChecks.has(subcommand) || subcommand === 'config';
  const alias = checked ? undefined : localAliases.get(subcommand.toLowerCase());
  if (alias !== undefined && depth < maximumAliasDepth) {
    if (alias.startsWith('!')) {
      return { matches: [], aliasScript: [alias.slice(1), ...afterSubcommand.map((word) => word.script)].join(' ') };
    }
    const expanded = [...argumentsAfterProgram.slice(0, index), ...splitAlias(alias).map(literal), ...afterSubcommand];
    return checkGitCommand(expanded, { ...state, aliases: localAliases }, depth + 1);
  }

  const git = gitArguments(afterSubcommand.map((word) => word.value), state.afterOrphanCheckout);
  if (subcommand === 'config') return checkConfig(git.options);
  const matches = [...(gitSubcommandChecks.get(subcommand)?.(git) ?? []), ...checkExpirySettings(subcommand, settings)];
  return startsOrphanBranch(subcommand, git) ? { matches, startsOrphanBranch: true } : { matches };
}

/** `git config [--global|--local|--file f] alias.x value` and `git config set alias.x value`. */
function checkConfig(options: readonly (string | undefined)[]): GitCommandCheck {
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
  // `git config gc.reflogExpire now`: every later gc or maintenance expires with it.
  if (name !== undefined && value !== undefined && historyRetentionSetting.test(name)) {
    return { matches: [retentionMatch(`git config ${name} ${value}`, 'sets how long the repository keeps')] };
  }
  return { matches: [] };
}

// Settings that decide how long unreachable commits and reflog entries are kept (`gc.reflogExpire`,
// `gc.<pattern>.reflogExpireUnreachable`, `gc.pruneExpire`, `gc.worktreePruneExpire`), or whether
// reflogs are written at all (`core.logAllRefUpdates`).
const historyRetentionSetting = /^(?:gc\.(?:.+\.)?(?:reflogexpire|reflogexpireunreachable|pruneexpire|worktreepruneexpire)|core\.logallrefupdates)$/i;
// The subcommands that expire reflogs or prune objects with those settings.
const expiringSubcommands = new Set(['gc', 'prune', 'reflog', 'repack', 'maintenance', 'fetch', 'pull', 'commit', 'merge', 'rebase', 'am']);

function retentionMatch(what: string, effect: string): RuleMatch {
  return {
    rule: 'git-discard-work',
    reason: `${what} ${effect} unreachable commits and reflog entries; with an early expiry, git gc deletes at once the commits only the reflog could bring back. Leave the expiry settings alone, or ask the user to confirm.`,
  };
}

/**
 * `git -c gc.reflogExpire=now -c gc.pruneExpire=now gc` (any date, any expiring subcommand — gc
 * runs automatically after commit, fetch, merge …): judged by the effect, not by the spelling of the
 * date. A setting only known at run time counts.
 */
function checkExpirySettings(subcommand: string, settings: readonly string[]): RuleMatch[] {
  if (!expiringSubcommands.has(subcommand)) return [];
  const named = settings.filter((setting) => setting === 'unknown' || historyRetentionSetting.test(setting.split('=')[0] ?? ''));
  return named.length === 0 ? [] : [retentionMatch(`git -c ${named.join(' -c ')} ${subcommand}`, 'changes, for this run, how long git keeps')];
}
