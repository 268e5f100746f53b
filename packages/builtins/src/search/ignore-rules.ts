import ignore, { type Ignore } from 'ignore';

interface IgnoreLevel {
  /** Absolute directory the patterns are relative to. */
  readonly directory: string;
  readonly matcher: Ignore;
}

/**
 * The ignore rules in force for one directory of a walk (§7.6 "遍历遵守 .gitignore"; "遍历用
 * ignore": the original walks with ripgrep's `ignore` crate and its defaults), as git applies
 * them: `.git/info/exclude` lowest, then each `.gitignore` from the repository root down, a deeper
 * file overriding a shallower one, the last matching pattern of a file winning (negations
 * included), patterns relative to their file's directory (anchored and directory-only patterns
 * through the `ignore` package, case-sensitive like git on Linux). `.gitignore` files count only
 * inside a git repository. `.ignore` files (same syntax) count everywhere and take precedence over
 * every git rule, nearest first, as in ripgrep and fd. Immutable: a directory with its own
 * ignore file gets a new value, its siblings keep the old one.
 */
export class IgnoreRules {
  /** Outside a git repository: `.ignore` files only. */
  static readonly none = new IgnoreRules(false, [], []);
  /** Inside a git repository, before any ignore file is read. */
  static readonly repository = new IgnoreRules(true, [], []);
  /** Whether the walk reads `.gitignore` files (only inside a repository). */
  readonly inRepository: boolean;
  readonly #gitLevels: readonly IgnoreLevel[];
  readonly #ignoreLevels: readonly IgnoreLevel[];

  private constructor(inRepository: boolean, gitLevels: readonly IgnoreLevel[], ignoreLevels: readonly IgnoreLevel[]) {
    this.inRepository = inRepository;
    this.#gitLevels = gitLevels;
    this.#ignoreLevels = ignoreLevels;
  }

  /** These rules plus the patterns of a git file (`.gitignore` or `info/exclude`) for `directory`. */
  withGitignore(directory: string, patterns: string): IgnoreRules {
    return new IgnoreRules(this.inRepository, [...this.#gitLevels, level(directory, patterns)], this.#ignoreLevels);
  }

  /** These rules plus the patterns of an `.ignore` file in `directory`. */
  withIgnoreFile(directory: string, patterns: string): IgnoreRules {
    return new IgnoreRules(this.inRepository, this.#gitLevels, [...this.#ignoreLevels, level(directory, patterns)]);
  }

  /**
   * The rules inside a repository whose root the walk enters (a folder holding `.git`): the
   * `.ignore` files so far, and none of the git rules of an enclosing repository, whose
   * `.gitignore` files stop at this root as git's do.
   */
  enteringRepository(): IgnoreRules {
    return new IgnoreRules(true, [], this.#ignoreLevels);
  }

  /** Whether the walk skips `path` (absolute); levels that are not above `path` do not count. */
  ignores(path: string, isDirectory: boolean): boolean {
    return verdictOf(this.#ignoreLevels, path, isDirectory) ?? (this.inRepository && verdictOf(this.#gitLevels, path, isDirectory)) ?? false;
  }
}

function level(directory: string, patterns: string): IgnoreLevel {
  return { directory, matcher: ignore({ ignorecase: false }).add(patterns) };
}

type Verdict = { ignored: boolean; unignored: boolean };

/** What the `ignore` package refuses as a relative path: leading dots then a slash, or dots only. */
const NOT_RELATIVE = /^\.*\/|^\.+$/;
type RuleSet = { test(path: string, mode: string): Verdict };

/**
 * The verdict of a file's own patterns for `relative`, without its parent folders. The walk only
 * asks about entries of folders it entered, so their folders are not ignored in the end — a
 * deeper file may have re-included one (`!node_modules/`) — and, as in git and ripgrep, the
 * entry is judged by the patterns that match it. The `ignore` package's `test` also applies the
 * folders' verdict; its rule set tests one path alone. That is internal API, so it is used only
 * when it answers a probe as expected (the dependency is pinned to the version tested here), and
 * `test` is used otherwise.
 */
const ownVerdict: (matcher: Ignore, relative: string) => Verdict = (() => {
  const rulesOf = (matcher: Ignore): RuleSet | undefined => {
    const rules = (matcher as unknown as { _rules?: Partial<RuleSet> })._rules;
    return typeof rules?.test === 'function' ? (rules as RuleSet) : undefined;
  };
  const probe = ignore().add('node_modules\n');
  const probeRules = rulesOf(probe);
  let works = false;
  try {
    works =
      probeRules !== undefined &&
      probeRules.test('src/node_modules/', 'regex').ignored === true &&
      probeRules.test('src/node_modules/y.log', 'regex').ignored === false &&
      probe.test('src/node_modules/y.log').ignored === true;
  } catch {
    works = false;
  }
  if (!works) return (matcher, relative) => matcher.test(relative);
  return (matcher, relative) =>
    // A path `test` would refuse as not relative (`../x`, `..`) goes through `test`, which throws.
    NOT_RELATIVE.test(relative) ? matcher.test(relative) : rulesOf(matcher)!.test(relative, 'regex');
})();

/** The verdict of the deepest level with a pattern matching `path`, or `undefined` when none has one. */
function verdictOf(levels: readonly IgnoreLevel[], path: string, isDirectory: boolean): boolean | undefined {
  for (let index = levels.length - 1; index >= 0; index -= 1) {
    const level = levels[index]!;
    const base = level.directory === '/' ? 0 : level.directory.length;
    if (path.length <= base + 1 || path.charCodeAt(base) !== 47 || !path.startsWith(level.directory)) continue;
    const relative = path.slice(base + 1);
    let verdict: Verdict;
    try {
      verdict = ownVerdict(level.matcher, isDirectory ? `${relative}/` : relative);
    } catch {
      continue; // a name the package cannot take as a relative path is not ignored
    }
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return undefined;
}
