import { unescapePath } from '@openwork/fs-backend';
import { canonicalizePath, canonicalizePathSync, normalizePathText, type PathIntent, type PathResolution } from '@openwork/sandbox';

/** The path `resolvePath` goes on with, or why the model's text cannot be a path. */
export type Spelling = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/** A lone UTF-16 surrogate: no text a model copies from our output has one (`escapePath` shows bytes as `\xNN`). */
const LONE_SURROGATE = /\p{Cs}/u;

/** One question the choice asks: does this path name an entry (a dangling link counts)? */
type Question = string;

/**
 * Exact file names (docs/decisions/0003-exact-file-names-and-the-xnn-spelling.md): which file the model's path text means. Results show a byte that is not UTF-8 in a
 * file name as `\xNN` (`escapePath`); such a spelling is turned back into the bytes — but the path
 * as written is tried first, so a file literally named `a\xE9.txt` stays reachable:
 * 1. a lone surrogate is refused (it would reach the kernel as U+FFFD, a name nobody showed);
 * 2. no exact `\xNN` spelling in it (`unescapePath`): the text as it is;
 * 3. the text names something that exists: the text as it is;
 * 4. the decoded path names something that exists: the decoded path;
 * 5. neither exists (`may-create`): the decoded path if more of it exists (a deeper existing
 *    folder, where the new file goes), else the text.
 * The fence then checks whichever was chosen, like any other path (§6.2). Written once as a
 * generator of existence questions, so the async and the sync entry points cannot drift apart.
 */
function* choose(text: string, intent: PathIntent, cwd: string): Generator<Question, Spelling, boolean> {
  if (LONE_SURROGATE.test(text)) {
    return {
      ok: false,
      message: `The path ${JSON.stringify(text)} holds a lone UTF-16 surrogate, which names no file; send the path as results show it (a byte of a name that is not UTF-8 is written \\xNN, e.g. caf\\xE9.txt).`,
    };
  }
  const decoded = unescapePath(text);
  if (decoded === undefined || (yield text)) return { ok: true, path: text };
  if (yield decoded) return { ok: true, path: decoded };
  if (intent === 'may-create' && (yield* existingDepth(decoded, cwd)) > (yield* existingDepth(text, cwd))) return { ok: true, path: decoded };
  return { ok: true, path: text };
}

/** How many leading names of the path exist (its deepest existing folder's depth). */
function* existingDepth(path: string, cwd: string): Generator<Question, number, boolean> {
  const names = normalizePathText(path, cwd).split('/').filter((name) => name !== '');
  for (let depth = names.length; depth > 0; depth -= 1) {
    if (yield `/${names.slice(0, depth).join('/')}`) return depth;
  }
  return 0;
}

/** Only "no such entry" says no. */
function names(resolution: PathResolution): boolean {
  return resolution.ok || (resolution.problem !== 'not-found' && resolution.problem !== 'not-a-directory');
}

/** The spelling a tool's path means (`resolvePath`). */
export async function chooseSpelling(text: string, intent: PathIntent, cwd: string): Promise<Spelling> {
  const steps = choose(text, intent, cwd);
  let step = steps.next();
  while (!step.done) step = steps.next(names(await canonicalizePath(step.value, { cwd, intent: 'must-exist' })));
  return step.value;
}

/** Synchronous twin of `chooseSpelling` (grant paths, which `prepare` resolves). */
export function chooseSpellingSync(text: string, intent: PathIntent, cwd: string): Spelling {
  const steps = choose(text, intent, cwd);
  let step = steps.next();
  while (!step.done) step = steps.next(names(canonicalizePathSync(step.value, { cwd, intent: 'must-exist' })));
  return step.value;
}
