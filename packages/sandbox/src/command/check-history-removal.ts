import { PathPatternMarker } from './path-pattern-marker.js';
import type { PathTargetContext } from './judge-path-target.js';
import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

// The parts of a git directory that hold commits no other copy may have (§3.6): the
// object store, the refs and packed refs that name the commits, the reflogs that can bring lost
// ones back, submodule repositories and Git LFS contents. `hooks`, `info`, `rebase-merge` or
// `index.lock` hold no history: removing them is an ordinary repair.
const historyEntries = ['objects', 'refs', 'packed-refs', 'logs', 'modules', 'lfs'];
// Remote-tracking refs are copies of what the remote has; deleting them loses nothing.
const copiedEntries = new Set(['refs/remotes']);

const { anyText, oneCharacter, unknown, home, workingDirectory } = PathPatternMarker;
const markers = new RegExp(`[${anyText}${oneCharacter}${unknown}]`);

/** How a removal names its targets. */
export interface HistoryRemoval {
  /** `rm -r`, `find -exec rm -r`: folders go too. */
  readonly recursive: boolean;
  /** `find -name`/`-path` globs match a leading dot (no FNM_PERIOD); the shell's do not. */
  readonly globsMatchDot?: boolean;
}

/** Whether a pattern component (`.git`, `.g*`, `.[g]it`, `objects`, `*`) can name `name`. */
function canName(component: string, name: string, removal: HistoryRemoval): boolean {
  if (!markers.test(component)) return component === name;
  if (removal.globsMatchDot !== true && name.startsWith('.') && !component.startsWith('.')) return false;
  let source = '';
  for (const character of component) {
    if (character === anyText || character === unknown) source += '.*';
    else if (character === oneCharacter) source += '.';
    else source += character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's').test(name);
}

/** The pattern's components, `.` dropped and `..` applied as far as the text allows. */
function components(pattern: string, context: PathTargetContext): string[] {
  const absolute = pattern.startsWith('/') || pattern.startsWith(home) || pattern.startsWith(workingDirectory) || pattern.startsWith(unknown);
  const joined = absolute || context.workingDirectory === undefined ? pattern : `${context.workingDirectory}/${pattern}`;
  const result: string[] = [];
  for (const component of joined.split('/')) {
    if (component === '' || component === '.') continue;
    if (component === '..' && result.length > 0 && !markers.test(result[result.length - 1] as string)) result.pop();
    else result.push(component);
  }
  return result;
}

/**
 * What of a repository's history removing `pattern` destroys, or `undefined`: the `.git` folder
 * itself (only when `recursive`), everything in it (`.git/*`), or one of its history entries or
 * anything inside one (`.git/objects`, `.git/refs/heads/main`, `.git/packed-refs`).
 */
export function describeHistoryTarget(pattern: string, removal: HistoryRemoval, context: PathTargetContext): string | undefined {
  const parts = components(pattern, context);
  for (let index = parts.length - 1; index >= 0; index -= 1) {
    if (!canName(parts[index] as string, '.git', removal)) continue;
    const inside = parts.slice(index + 1);
    if (inside.length === 0) {
      if (removal.recursive) return 'the .git folder, with every commit, branch and stash of the repository';
      continue;
    }
    const [first = '', second = ''] = inside;
    const entry = historyEntries.find((name) => canName(first, name, removal));
    if (entry === undefined) continue;
    // `.git/*` reaches `packed-refs` even without -r, and the folders with it.
    if (markers.test(first)) return 'everything in the .git folder it matches, the refs included';
    if (entry === 'refs' && inside.length > 1 && copiedEntries.has(`refs/${second}`)) continue;
    if (inside.length === 1 && entry !== 'packed-refs' && !removal.recursive) continue;
    return `.git/${inside.join('/')} (${entryRole(entry)})`;
  }
  return undefined;
}

function entryRole(entry: string): string {
  if (entry === 'objects') return 'the commits themselves';
  if (entry === 'modules') return 'the repositories of the submodules';
  if (entry === 'lfs') return 'the contents of Git LFS files';
  return 'what names the commits or recovers lost ones';
}

/**
 * A recursive or plain removal of a repository's history (`rm -rf .git`, `rm .git/packed-refs`):
 * one finding for the command, naming every history target it has.
 */
export function checkHistoryRemoval(verb: string, targets: readonly ResolvedWord[], recursive: boolean, context: PathTargetContext): RuleMatch[] {
  const descriptions = targets.map((target) => describeHistoryTarget(target.pattern, { recursive }, context));
  return historyDelete(verb, descriptions);
}

/** A `find` test's argument as a pattern: find expands `*`, `?` and `[…]` itself, quoted or not. */
function findGlob(value: string): string {
  return value.replace(/\[[!^]?\]?[^\]]*\]|[*?]/g, (glob) => (glob === '*' ? anyText : oneCharacter));
}

// `find` tests that name what is removed, and whether the name is a path (`-path`) or a basename.
const findNameTests = new Map([['-name', 'name'], ['-iname', 'name'], ['-path', 'path'], ['-ipath', 'path'], ['-wholename', 'path'], ['-iwholename', 'path']]);

/**
 * `find` removing history (§3.6): a start point inside `.git` that `-delete` or `-exec rm` removes
 * (`find .git/objects -delete`), `-name .git`/`-name objects` with a recursive `-exec rm -r`, or a
 * `-path` test inside `.git` (`find . -path './.git/refs/*' -delete`).
 */
export function checkFindHistoryRemoval(
  startPoints: readonly ResolvedWord[],
  expression: readonly ResolvedWord[],
  recursive: boolean,
  context: PathTargetContext,
): RuleMatch[] {
  const verb = recursive ? 'find … -exec rm -r' : 'find … -delete';
  // Everything below a start point is removed, depth first: folders included, even for -delete.
  const descriptions = startPoints.map((start) => describeHistoryTarget(start.pattern, { recursive: true }, context));
  for (let index = 0; index < expression.length; index += 1) {
    const test = expression[index]?.value ?? '';
    const kind = findNameTests.get(test);
    const argument = expression[index + 1]?.value;
    if (kind === undefined || argument === undefined) continue;
    // `-name` sees one component; `-path` the whole path, where `*` crosses `/` too. `-iname`
    // ignores case, and git's own names are lower case.
    const glob = findGlob(test.startsWith('-i') ? argument.toLowerCase() : argument);
    const candidate = kind === 'name' ? `${unknown}/${glob}` : glob.replaceAll(anyText, `${anyText}/${anyText}`);
    descriptions.push(describeHistoryTarget(candidate, { recursive, globsMatchDot: true }, context));
  }
  return historyDelete(verb, descriptions);
}

function historyDelete(verb: string, found: readonly (string | undefined)[], effect = 'would delete'): RuleMatch[] {
  const descriptions = [...new Set(found.filter((description): description is string => description !== undefined))];
  if (descriptions.length === 0) return [];
  return [{
    rule: 'git-history-delete',
    reason: `${verb} ${effect} ${descriptions.join(' and ')}; commits that were never pushed are lost for good. Leave the git folder alone (git gc and git prune clean it safely), or ask the user to confirm.`,
  }];
}

/**
 * `mv` (or `rename`) moving a repository's history away (`mv .git /tmp/x`, `mv .git/objects o`):
 * the sources are every operand but the last, or all of them after `-t DIR`. Moving `.git`
 * anywhere takes the history out of the repository as surely as deleting it.
 */
export function checkHistoryMove(verb: string, argumentsAfterProgram: readonly ResolvedWord[], context: PathTargetContext): RuleMatch[] {
  const operands: ResolvedWord[] = [];
  let targetDirectoryGiven = false;
  let optionsEnded = false;
  for (let index = 0; index < argumentsAfterProgram.length; index += 1) {
    const word = argumentsAfterProgram[index] as ResolvedWord;
    const text = word.value;
    if (!optionsEnded && text === '--') optionsEnded = true;
    else if (!optionsEnded && (text === '-t' || text === '--target-directory' || text === '-S' || text === '--suffix')) {
      if (text === '-t' || text === '--target-directory') targetDirectoryGiven = true;
      index += 1;
    } else if (!optionsEnded && text !== undefined && text.startsWith('-')) {
      if (/^-[A-Za-z]*t/.test(text) || text.startsWith('--target-directory=')) targetDirectoryGiven = true;
    } else operands.push(word);
  }
  const sources = targetDirectoryGiven ? operands : operands.slice(0, -1);
  return historyDelete(verb, sources.map((source) => describeHistoryTarget(source.pattern, { recursive: true }, context)), 'would move away');
}

// A `.git` path in code: `.git` as a whole path component (not `.gitignore`, `.github`), with what follows it.
const gitPathInCode = /(?:^|[^\w.-])(\.git(?:\/[^'"`\s,;)\]}]*)?)(?=$|['"`\s,;)\]}])/g;
// What removes or moves a file or a tree in the usual interpreters' standard libraries.
const removeOrMoveInCode =
  /\b(?:rmtree|remove_tree|rmdir|removedirs|rm_rf|rm_r|rm_f|rm|rmSync|rmdirSync|rimraf|unlink|unlinkSync|unlink_if_exists|remove|delete|deleteSync|rename|renameSync|replace|move|moveSync|mv|remove_dir_all|remove_file|Remove-Item|shred)\b/;

/**
 * Code given to an interpreter on its command line (`python3 -c`, `node -e`, `perl -e`, `ruby -e`)
 * that names a repository's history and calls something that removes or moves files
 * (`shutil.rmtree(".git/objects")`, `fs.rmSync(".git", …)`, `os.rename(".git", …)`): judged by
 * effect, not spelling — any such mention together is enough, since what the code does with the
 * path cannot be followed. Code that builds the name (`".g" + "it"`) or a script run from a file
 * is beyond the analysis; the staged apply judges what happened.
 */
export function checkInterpreterHistoryRemoval(program: string, code: string, context: PathTargetContext): RuleMatch[] {
  if (!removeOrMoveInCode.test(code)) return [];
  const descriptions = [...code.matchAll(gitPathInCode)].map((match) => describeHistoryTarget(match[1] as string, { recursive: true }, context));
  return historyDelete(`${program} code that removes or moves files`, descriptions, 'and names');
}
