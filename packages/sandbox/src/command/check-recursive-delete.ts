import { checkFindHistoryRemoval, checkHistoryRemoval } from './check-history-removal.js';
import type { PathTargetContext } from './judge-path-target.js';
import { judgePathTarget } from './judge-path-target.js';
import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

/** `rm -r`/`--no-preserve-root` of a critical or entirely dynamic target (§3.6). */
export function checkRemove(argumentsAfterProgram: readonly ResolvedWord[], context: PathTargetContext): RuleMatch[] {
  let recursive = false;
  let noPreserveRoot = false;
  let optionsEnded = false;
  const targets: ResolvedWord[] = [];
  for (const word of argumentsAfterProgram) {
    const text = word.value;
    if (!optionsEnded && text === '--') {
      optionsEnded = true;
    } else if (!optionsEnded && text !== undefined && text.startsWith('--')) {
      if (text === '--recursive') recursive = true;
      if (text === '--no-preserve-root') noPreserveRoot = true;
    } else if (!optionsEnded && text !== undefined && /^-[A-Za-z]+$/.test(text)) {
      if (/[rR]/.test(text)) recursive = true;
    } else {
      targets.push(word);
    }
  }
  const matches: RuleMatch[] = [];
  if (noPreserveRoot) {
    matches.push({
      rule: 'recursive-delete',
      reason: 'rm --no-preserve-root turns off the check that stops rm -r from deleting /. Drop the flag and delete only the directory you mean.',
    });
  }
  if (recursive) matches.push(...judgeDeletionTargets('rm -r', targets, context));
  matches.push(...checkHistoryRemoval(recursive ? 'rm -r' : 'rm', targets, recursive, context));
  return matches;
}

// Tests that narrow what `find` selects; `-type`, depth limits and actions do not.
const selectiveFindTests = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname',
  '-newer', '-anewer', '-cnewer', '-newermt', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-size',
  '-user', '-uid', '-group', '-gid', '-nouser', '-nogroup', '-perm', '-empty', '-inum', '-samefile', '-links',
]);
const nameTests = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex']);

/** What `find` runs through `-exec`/`-execdir`/`-ok`/`-okdir`, so the analysis can check it too. */
export function findExecutedCommands(argumentsAfterProgram: readonly ResolvedWord[]): ResolvedWord[][] {
  const commands: ResolvedWord[][] = [];
  for (let index = 0; index < argumentsAfterProgram.length; index++) {
    const text = argumentsAfterProgram[index]?.value;
    if (text !== '-exec' && text !== '-execdir' && text !== '-ok' && text !== '-okdir') continue;
    const command: ResolvedWord[] = [];
    for (index++; index < argumentsAfterProgram.length; index++) {
      const word = argumentsAfterProgram[index];
      if (word === undefined || word.value === ';' || word.value === '+') break;
      command.push(word);
    }
    commands.push(command);
  }
  return commands;
}

/** Whether an `-exec`'d command is `rm -r` (`rm -rf {} +`, `rm --recursive`). */
function isRecursiveRemove(words: readonly ResolvedWord[]): boolean {
  return words.slice(1).some((word) => word.value === '--recursive' || /^-[A-Za-z]*[rR]/.test(word.value ?? ''));
}

/**
 * `find <critical> … -delete` (or `-exec rm`) with nothing that narrows the selection, and `find`
 * removing a repository's history however narrowly it selects (§3.6).
 */
export function checkFind(
  argumentsAfterProgram: readonly ResolvedWord[],
  context: PathTargetContext,
  executedProgram: (words: readonly ResolvedWord[]) => string | undefined,
): RuleMatch[] {
  let index = 0;
  // Leading options: -H -L -P -D debugopts -O3.
  while (index < argumentsAfterProgram.length) {
    const text = argumentsAfterProgram[index]?.value;
    if (text === '-H' || text === '-L' || text === '-P' || (text !== undefined && /^-O\d*$/.test(text))) index++;
    else if (text === '-D') index += 2;
    else break;
  }
  const startPoints: ResolvedWord[] = [];
  for (; index < argumentsAfterProgram.length; index++) {
    const word = argumentsAfterProgram[index];
    const text = word?.value;
    if (word === undefined || (text !== undefined && (/^[-(!)]/.test(text) || text === ','))) break;
    startPoints.push(word);
  }
  const expression = argumentsAfterProgram.slice(index);
  const removals = findExecutedCommands(expression).filter((command) => executedProgram(command) === 'rm');
  const deletes = expression.some((word) => word.value === '-delete') || removals.length > 0;
  if (!deletes) return [];
  const history = checkFindHistoryRemoval(startPoints, expression, removals.some(isRecursiveRemove), context);
  for (let position = 0; position < expression.length; position++) {
    const text = expression[position]?.value;
    if (text === undefined || !selectiveFindTests.has(text)) continue;
    const argument = expression[position + 1]?.value;
    // `-name '*'` selects everything; any other narrowing test makes this an ordinary cleanup.
    if (!nameTests.has(text) || (argument !== undefined && !/^[*.]*$/.test(argument))) return history;
  }
  const targets = startPoints.length > 0 ? startPoints : [{ value: '.', pattern: '.', script: '.', substitutions: [] }];
  return [...judgeDeletionTargets('find … -delete', targets, context), ...history];
}

function judgeDeletionTargets(verb: string, targets: readonly ResolvedWord[], context: PathTargetContext): RuleMatch[] {
  const matches: RuleMatch[] = [];
  for (const target of targets) {
    const judgement = judgePathTarget(target.pattern, context);
    if (judgement.kind === 'critical') {
      matches.push({
        rule: 'recursive-delete',
        reason: `${verb} would delete ${judgement.description}. Delete only the specific subdirectory you mean (for example rm -rf ./build), or ask the user to do this themselves.`,
      });
    } else if (judgement.kind === 'unknown') {
      matches.push({
        rule: 'recursive-delete-unknown-target',
        reason: `The target of ${verb} (${target.script}) is only known at run time; if it expands to an empty string this deletes / or the working directory. Use a literal path so the target can be checked.`,
      });
    }
  }
  return matches;
}
