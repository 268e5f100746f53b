import * as fs from 'node:fs';
import { pathFromBytes, toNodePath } from './path-bytes.js';
import { SandboxConfigurationError } from './sandbox-error.js';

/**
 * `must-exist`: the target itself is realpath'd and must exist (read, edit).
 * `may-create`: the deepest existing ancestor is realpath'd and the rest re-appended (write) — §6.2.
 */
export type PathIntent = 'must-exist' | 'may-create';

export interface CanonicalizePathOptions {
  /** Absolute working directory relative inputs are resolved against (never `process.cwd()`). */
  readonly cwd: string;
  readonly intent: PathIntent;
}

/** Why an input has no canonical path. Each comes with a message that says what to do next. */
export type PathProblem =
  | 'empty'
  | 'nul-byte'
  | 'not-found'
  | 'not-a-directory'
  | 'dangling-symlink'
  | 'symlink-loop'
  | 'inaccessible';

/** The result of canonicalisation: a value, not an exception (a bad path is the model's input). */
export type PathResolution =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: PathProblem; readonly message: string };

type Probe =
  | { readonly op: 'lstat'; readonly path: string }
  | { readonly op: 'stat'; readonly path: string }
  | { readonly op: 'realpath'; readonly path: string };

/** What a probe answered: a kind of node, a real path, or the errno code. */
type ProbeAnswer =
  | { readonly kind: 'symlink' | 'directory' | 'other' }
  | { readonly real: string }
  | { readonly error: string };

/**
 * Textual part of §6.2: make absolute against `cwd`, drop empty and `.` segments, apply `..`
 * (never above `/`). `~` is an ordinary name (a directory called `~` under cwd) and backslashes
 * are ordinary characters on POSIX: the model must send absolute or cwd-relative paths.
 */
export function normalizePathText(input: string, cwd: string): string {
  const absolute = input.startsWith('/') ? input : `${cwd}/${input}`;
  const segments: string[] = [];
  for (const segment of absolute.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

function joinRest(base: string, rest: readonly string[]): string {
  if (rest.length === 0) return base;
  return base === '/' ? `/${rest.join('/')}` : `${base}/${rest.join('/')}`;
}

function problemFor(code: string, path: string, display: string): PathResolution {
  switch (code) {
    case 'ENOENT':
      return { ok: false, problem: 'not-found', message: `${display} does not exist. Check the path (list the parent directory to see what is there).` };
    case 'ENOTDIR':
      return { ok: false, problem: 'not-a-directory', message: `${display}: a component of the path is a file, not a directory (${path}).` };
    case 'ELOOP':
      return { ok: false, problem: 'symlink-loop', message: `${display} goes through a symbolic link loop at ${path}; use a path without the loop.` };
    default:
      return { ok: false, problem: 'inaccessible', message: `${display} cannot be resolved (${code} at ${path}).` };
  }
}

/**
 * The algorithm, written once as a generator of file-system probes so that the async and the
 * sync entry points cannot drift apart.
 */
function* canonicalWalk(input: string, options: CanonicalizePathOptions): Generator<Probe, PathResolution, ProbeAnswer> {
  if (!options.cwd.startsWith('/') || options.cwd.includes('\0')) {
    throw new SandboxConfigurationError(`canonicalizePath needs an absolute working directory, got ${JSON.stringify(options.cwd)}`);
  }
  if (input.includes('\0')) {
    return { ok: false, problem: 'nul-byte', message: 'The path contains a NUL byte; send the path without it.' };
  }
  if (input.length === 0) {
    return { ok: false, problem: 'empty', message: 'The path is empty; send an absolute path or one relative to the working directory.' };
  }
  const textual = normalizePathText(input, options.cwd);

  if (options.intent === 'must-exist') {
    const answer = yield { op: 'realpath', path: textual };
    if ('real' in answer) return { ok: true, path: answer.real };
    if ('error' in answer && answer.error === 'ENOENT') {
      const link = yield { op: 'lstat', path: textual };
      if ('kind' in link && link.kind === 'symlink') {
        return danglingLink(textual, input);
      }
    }
    return problemFor('error' in answer ? answer.error : 'EIO', textual, input);
  }

  // may-create: walk up to the deepest existing ancestor (§6.2).
  const segments = textual === '/' ? [] : textual.slice(1).split('/');
  for (let depth = segments.length; depth >= 0; depth -= 1) {
    const candidate = `/${segments.slice(0, depth).join('/')}`;
    const rest = segments.slice(depth);
    const node = yield { op: 'lstat', path: candidate };
    if ('error' in node) {
      if (node.error === 'ENOENT' || node.error === 'ENOTDIR') continue;
      return problemFor(node.error, candidate, input);
    }
    if (!('kind' in node)) continue;
    if (node.kind === 'symlink') {
      const target = yield { op: 'stat', path: candidate };
      if ('error' in target) {
        if (target.error === 'ENOENT') return danglingLink(candidate, input);
        return problemFor(target.error, candidate, input);
      }
      if (rest.length > 0 && 'kind' in target && target.kind !== 'directory') {
        return problemFor('ENOTDIR', candidate, input);
      }
    } else if (rest.length > 0 && node.kind !== 'directory') {
      return problemFor('ENOTDIR', candidate, input);
    }
    const real = yield { op: 'realpath', path: candidate };
    if ('real' in real) return { ok: true, path: joinRest(real.real, rest) };
    return problemFor('error' in real ? real.error : 'EIO', candidate, input);
  }
  return problemFor('ENOENT', '/', input);
}

function danglingLink(linkPath: string, display: string): PathResolution {
  return {
    ok: false,
    problem: 'dangling-symlink',
    message: `${display} goes through the dangling symbolic link ${linkPath} (its target does not exist); refusing, because writing through it would create a file wherever the link points. Remove the link or use the target path.`,
  };
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : 'EIO';
}

function kindOf(stats: fs.Stats): 'symlink' | 'directory' | 'other' {
  if (stats.isSymbolicLink()) return 'symlink';
  return stats.isDirectory() ? 'directory' : 'other';
}

// Paths are strings whose U+DC80–U+DCFF stand for bytes that are not UTF-8
// (`path-bytes.ts`): the kernel gets those bytes, and a real path that Node
// decoded with a U+FFFD is read again as bytes, so the path checked is exactly the one used.
const REPLACEMENT = '\uFFFD';

async function realpathAsync(path: string): Promise<string> {
  const real = await fs.promises.realpath(toNodePath(path), 'utf8');
  return real.includes(REPLACEMENT) ? pathFromBytes(await fs.promises.realpath(toNodePath(path), 'buffer')) : real;
}

function realpathSync(path: string): string {
  const real = fs.realpathSync.native(toNodePath(path), 'utf8');
  return real.includes(REPLACEMENT) ? pathFromBytes(fs.realpathSync.native(toNodePath(path), 'buffer')) : real;
}

async function answerAsync(probe: Probe): Promise<ProbeAnswer> {
  try {
    switch (probe.op) {
      case 'lstat':
        return { kind: kindOf(await fs.promises.lstat(toNodePath(probe.path))) };
      case 'stat':
        return { kind: kindOf(await fs.promises.stat(toNodePath(probe.path))) };
      case 'realpath':
        return { real: await realpathAsync(probe.path) };
    }
  } catch (error) {
    return { error: errorCode(error) };
  }
}

function answerSync(probe: Probe): ProbeAnswer {
  try {
    switch (probe.op) {
      case 'lstat':
        return { kind: kindOf(fs.lstatSync(toNodePath(probe.path))) };
      case 'stat':
        return { kind: kindOf(fs.statSync(toNodePath(probe.path))) };
      case 'realpath':
        return { real: realpathSync(probe.path) };
    }
  } catch (error) {
    return { error: errorCode(error) };
  }
}

/**
 * Canonicalise a path the model gave (spec §6.2, architecture §3.4): absolute against
 * `options.cwd`, `.`/`..` removed textually, then the realpath of the target (`must-exist`) or of
 * the deepest existing ancestor plus the rest (`may-create`). NUL bytes and dangling symbolic
 * links on the way are refused. `~` is not expanded. Case is never changed.
 */
export async function canonicalizePath(input: string, options: CanonicalizePathOptions): Promise<PathResolution> {
  const walk = canonicalWalk(input, options);
  let step = walk.next();
  while (!step.done) {
    step = walk.next(await answerAsync(step.value));
  }
  return step.value;
}

/** Synchronous twin of `canonicalizePath` (same algorithm), used to build policies. */
export function canonicalizePathSync(input: string, options: CanonicalizePathOptions): PathResolution {
  const walk = canonicalWalk(input, options);
  let step = walk.next();
  while (!step.done) {
    step = walk.next(answerSync(step.value));
  }
  return step.value;
}
