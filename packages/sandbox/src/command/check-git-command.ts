import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

const globalOptionsWithArgument = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix']);

/** Force pushes, `reset --hard` and `clean -f` with `-d`/`-x`/`-X` (§3.6). */
export function checkGitCommand(argumentsAfterProgram: readonly ResolvedWord[]): RuleMatch[] {
  let index = 0;
  while (index < argumentsAfterProgram.length) {
    const text = argumentsAfterProgram[index]?.value;
    if (text === undefined || !text.startsWith('-')) break;
    index += globalOptionsWithArgument.has(text) ? 2 : 1;
  }
  const subcommand = argumentsAfterProgram[index]?.value;
  const rest = argumentsAfterProgram.slice(index + 1).map((word) => word.value);
  const untilDoubleDash = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  const shortLetters = untilDoubleDash
    .filter((text): text is string => text !== undefined && /^-[A-Za-z]+$/.test(text))
    .join('');

  if (subcommand === 'push') {
    const forced =
      /f/.test(shortLetters) ||
      untilDoubleDash.some((text) => text !== undefined && /^--force(?:-with-lease)?(?:=.*)?$/.test(text));
    // A `+` refspec (`git push origin +main`) force-updates that ref just like --force.
    const plusRefspec = rest.some((text) => text !== undefined && text.startsWith('+') && text.length > 1);
    if (forced || plusRefspec) {
      return [{
        rule: 'git-force-push',
        reason: 'A force push (--force, -f, --force-with-lease or a +refspec) overwrites commits on the remote that others may depend on. Push without force, or ask the user to confirm the history rewrite.',
      }];
    }
  }
  if (subcommand === 'reset' && untilDoubleDash.includes('--hard')) {
    return [{
      rule: 'git-hard-reset',
      reason: 'git reset --hard discards all uncommitted changes in the working tree for good. Use git stash, or git reset --soft/--mixed, unless the user asked to throw the changes away.',
    }];
  }
  if (subcommand === 'clean') {
    const dryRun = /n/.test(shortLetters) || untilDoubleDash.includes('--dry-run');
    const forced = /f/.test(shortLetters) || untilDoubleDash.includes('--force');
    if (!dryRun && forced && /[dxX]/.test(shortLetters)) {
      return [{
        rule: 'git-clean',
        reason: 'git clean -f with -d/-x/-X permanently deletes untracked directories or ignored files (build outputs, .env files, local data). Run git clean -n first to list what would go, and delete only what is needed.',
      }];
    }
  }
  return [];
}
