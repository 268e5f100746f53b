import ignore, { type Ignore } from 'ignore';

interface IgnoreLevel {
  /** Absolute directory the patterns are relative to. */
  readonly directory: string;
  readonly matcher: Ignore;
}

/**
 * The `.gitignore` rules in force for one directory of a walk (§7.6 "遍历遵守 .gitignore"), as
 * git applies them: `.git/info/exclude` lowest, then each `.gitignore` from the repository root
 * down, a deeper file overriding a shallower one, the last matching pattern of a file winning
 * (negations included), patterns relative to their file's directory (anchored and directory-only
 * patterns through the `ignore` package, case-sensitive like git on Linux). Immutable: a
 * directory with its own `.gitignore` gets a new value, its siblings keep the old one.
 */
export class IgnoreRules {
  /** Outside a git repository: no rules, and `.gitignore` files are not read. */
  static readonly none = new IgnoreRules(false, []);
  /** Inside a git repository, before any ignore file is read. */
  static readonly repository = new IgnoreRules(true, []);
  /** Whether the walk reads `.gitignore` files (only inside a repository). */
  readonly active: boolean;
  readonly #levels: readonly IgnoreLevel[];

  private constructor(active: boolean, levels: readonly IgnoreLevel[]) {
    this.active = active;
    this.#levels = levels;
  }

  /** These rules plus the patterns of a file (`.gitignore` or `info/exclude`) for `directory`. */
  with(directory: string, patterns: string): IgnoreRules {
    const matcher = ignore({ ignorecase: false }).add(patterns);
    return new IgnoreRules(true, [...this.#levels, { directory, matcher }]);
  }

  /** Whether the walk skips `path` (absolute); levels that are not above `path` do not count. */
  ignores(path: string, isDirectory: boolean): boolean {
    for (let index = this.#levels.length - 1; index >= 0; index -= 1) {
      const level = this.#levels[index]!;
      const base = level.directory === '/' ? 0 : level.directory.length;
      if (path.length <= base + 1 || path.charCodeAt(base) !== 47 || !path.startsWith(level.directory)) continue;
      const relative = path.slice(base + 1);
      let verdict: { ignored: boolean; unignored: boolean };
      try {
        verdict = level.matcher.test(isDirectory ? `${relative}/` : relative);
      } catch {
        continue; // a name the package cannot take as a relative path is not ignored
      }
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
