import picomatch from 'picomatch';

/** How a glob meets the paths of a walk (relative to the search root, `/`-separated). */
export interface SearchGlobOptions {
  /**
   * grep's filter (§7.6, like `rg -g`): a glob without `/` matches the file name at any depth.
   * glob's own pattern (§7.7) always matches the whole relative path.
   */
  readonly nameAtAnyDepth: boolean;
  /** The search root's real path: a pattern written as an absolute path inside it is made relative. */
  readonly root: string;
}

/**
 * Compiles a grep or glob pattern (search performance), the ripgrep and `.gitignore` way at its edges:
 * - A leading `/` anchors the rest to the search root (`/src/*.ts` is `src/*.ts` at the top, never
 *   a file name at any depth); a pattern that spells an absolute path under the root
 *   (`<root>/src/**`) is read relative to it. Paths the walk reports never start with `/`, so
 *   without this such a pattern silently matched nothing.
 * - A leading `!` is a negation, as in `rg -g '!…'`: the files the rest does NOT match
 *   (`!*.json`, `!/vendor/**`). picomatch's own negation is turned off, so the `!` is applied
 *   once, after the anchoring — `!/foo/**` excludes the root's `foo`, instead of inverting a
 *   pattern that could never match.
 * Throws picomatch's error for an invalid pattern, or one that is empty after its `!` and `/`.
 */
export function compileSearchGlob(pattern: string, options: SearchGlobOptions): (relativePath: string) => boolean {
  const negated = pattern.startsWith('!');
  let body = negated ? pattern.slice(1) : pattern;
  let anchored = false;
  const rootPrefix = options.root === '/' ? '/' : `${options.root}/`;
  if (body.startsWith(rootPrefix)) {
    body = body.slice(rootPrefix.length);
    anchored = true;
  } else if (body.startsWith('/')) {
    body = body.replace(/^\/+/, '');
    anchored = true;
  }
  if (body === '') throw new Error(negated ? 'a "!" needs a glob after it, like "!*.json" (every file but JSON files)' : 'the glob names no file (a "/" alone is the search root)');
  const matches = compileBody(body, options.nameAtAnyDepth && !anchored && !body.includes('/'));
  return negated ? (relativePath) => !matches(relativePath) : matches;
}

/**
 * picomatch, with shortcuts that give the same answers on the walk's paths (relative, never
 * holding `.` or `..` segments): `**` and `**\/*` match every path, `**\/NAME` (NAME without
 * `/`) is NAME matched against the last segment — the regex then runs on the name, not the whole
 * path (picomatch was a tenth of glob `**\/*`'s CPU, search performance) — and a NAME that is `*` and a
 * plain suffix (`*.json`) is that suffix at the end of the path.
 */
function compileBody(body: string, basename: boolean): (relativePath: string) => boolean {
  picomatch.parse(body); // the same validation (and error) as without a shortcut
  if (body === '**' || body === '**/*') return () => true;
  const name = body.startsWith('**/') ? body.slice(3) : basename ? body : undefined;
  if (name !== undefined && name !== '' && !name.includes('/') && !name.startsWith('**')) {
    // `*.json`: a literal suffix of the last segment (no `/` in it), so of the whole path.
    const suffix = /^\*([A-Za-z0-9._-]+)$/.exec(name)?.[1];
    if (suffix !== undefined) return (relativePath) => relativePath.endsWith(suffix);
    const matchesName = picomatch(name, { dot: true, nonegate: true });
    return (relativePath) => matchesName(relativePath.slice(relativePath.lastIndexOf('/') + 1));
  }
  return picomatch(body, { basename, dot: true, nonegate: true });
}
