import type { PathAccess } from '../policy/sandbox-policy.js';
import { detectRunnerFailure } from './detect-runner-failure.js';
import type { SandboxedCommandOutcome } from './sandboxed-command-outcome.js';

/** A path the kernel refused, as printed by the failing program (may be relative to the cwd). */
export interface DeniedPath {
  readonly path: string;
  /** The access a grant would need. */
  readonly access: PathAccess;
}

/** The kernel denied part of a sandboxed command (§3.5, 10e). */
export interface SandboxDenial {
  /** The output lines that carry the kernel's message, in order (at most 16). */
  readonly lines: readonly string[];
  /** Paths named in those lines (at most 16, the most a grant may list, §3.3); may be empty. */
  readonly paths: readonly DeniedPath[];
}

/** Input of `detectSandboxDenial`. */
export interface SandboxDenialQuery extends SandboxedCommandOutcome {
  /**
   * Whether the sandbox policy denies this access. When given, `Permission denied` and
   * `Operation not permitted` lines count only for paths the policy denies (ordinary Unix
   * permission errors are then not called sandbox denials); lines naming no path count only
   * when they say `Read-only file system`. `Device or resource busy` counts only with this
   * function, and only for denied paths: bubblewrap protects a name with a mount point, and
   * renaming over one (`git config` writing `config.lock` over `.git/config`) fails with EBUSY.
   */
  readonly isPathDenied?: (path: string, access: PathAccess) => boolean;
}

const maximumEntries = 16;
const kernelMessage = 'Operation not permitted|Read-only file system|Permission denied|Device or resource busy';
const readingPrograms = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'wc', 'sort', 'uniq', 'diff', 'cmp',
  'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'base64', 'xxd', 'od', 'strings', 'file', 'ls', 'stat', 'du', 'find', 'source', '.',
]);
const writeWords = /creat|touch|writ|remov|delet|unlink|mkdir|renam|\bmov|lock|chmod|chown|truncat|\blink|symlink|copy|install|sav|temporar|utime/i;
const readWords = /cannot open directory|cannot access|cannot read|for reading|opendir|scandir|cannot stat|\blstat\b|\bstat\b/i;

interface LineShape {
  readonly expression: RegExp;
  /** Paths and whether the line says read-only file system. */
  readonly read: (match: RegExpExecArray) => { paths: string[]; program?: string; readOnly: boolean; pathless?: boolean; busy?: boolean; policyOnly?: boolean };
}

// The shapes real tools print for EPERM / EACCES / EROFS (§3.5): never the bare words alone.
const lineShapes: readonly LineShape[] = [
  {
    // Node.js: Error: EROFS: read-only file system, open '/ws/x'  (rename 'a' -> 'b')
    expression: /\b(EACCES|EPERM|EROFS|EBUSY): (?:permission denied|operation not permitted|read-only file system|resource busy or locked), (\w+) '([^']*)'(?: -> '([^']*)')?/,
    read: (match) => ({
      paths: [match[3], match[4]].filter((path): path is string => path !== undefined && path !== ''),
      program: match[2],
      readOnly: match[1] === 'EROFS',
      busy: match[1] === 'EBUSY',
    }),
  },
  {
    // Node.js creating a folder where the sandbox shows the parent as missing (npm's cache under a
    // home it may not write): ENOENT: no such file or directory, mkdir '/home/u/.npm/_cacache'.
    // ENOENT is everyday, so it counts only for a path the policy denies (like EBUSY).
    expression: /\bENOENT: no such file or directory, (mkdir) '([^']*)'/,
    read: (match) => ({ paths: [match[2] ?? ''].filter((path) => path !== ''), program: 'mkdir', readOnly: false, policyOnly: true }),
  },
  {
    // Python: OSError: [Errno 30] Read-only file system: '/ws/x'
    expression: new RegExp(`\\[Errno (?:1|13|16|30)\\] (${kernelMessage}): (?:'((?:[^'\\\\]|\\\\.)*)'|"((?:[^"\\\\]|\\\\.)*)")`),
    read: (match) => ({
      paths: [match[2] ?? match[3] ?? ''].filter((path) => path !== ''),
      readOnly: match[1] === 'Read-only file system',
      busy: match[1] === 'Device or resource busy',
    }),
  },
  {
    // Java: java.io.FileNotFoundException: /ws/x (Read-only file system)
    expression: new RegExp(`(/\\S*) \\((${kernelMessage})\\)$`),
    read: (match) => ({ paths: [match[1] ?? ''], readOnly: match[2] === 'Read-only file system', busy: match[2] === 'Device or resource busy' }),
  },
  {
    // Go: open /ws/x: read-only file system
    // (a rename or link names both paths: rename /ws/a /ws/.git/config: device or resource busy)
    expression: /\b(open|openat|mkdir|mkdirat|remove|unlinkat|rename|renameat|symlink|link|chmod|chown|lstat|stat|create|write|truncate|chtimes|utimes) (\S+)(?: (\S+))?: (operation not permitted|read-only file system|permission denied|device or resource busy)$/,
    read: (match) => ({
      paths: [match[2], match[3]].filter((path): path is string => path !== undefined && path !== ''),
      program: match[1],
      readOnly: match[4] === 'read-only file system',
      busy: match[4] === 'device or resource busy',
    }),
  },
  {
    // Rust: Read-only file system (os error 30) — names no path.
    expression: new RegExp(`(${kernelMessage}) \\(os error (?:1|13|16|30)\\)`),
    read: (match) => ({ paths: [], readOnly: match[1] === 'Read-only file system', pathless: true }),
  },
  {
    // coreutils, shells, git: touch: cannot touch 'x': Read-only file system / bash: line 1: x: …
    // fatal: Unable to create '/ws/.git/index.lock': Read-only file system
    expression: new RegExp(`^([A-Za-z0-9_.+/-]+(?:\\[\\d+\\])?):(?: line \\d+:)? (.+): (${kernelMessage})$`),
    read: (match) => ({
      paths: pathsInText(match[2] ?? ''),
      program: (match[1] ?? '').replace(/\[\d+\]$/, '').replace(/^.*\//, ''),
      readOnly: match[3] === 'Read-only file system',
      busy: match[3] === 'Device or resource busy',
    }),
  },
];

/**
 * Decides whether a finished sandboxed command was denied by the kernel (§3.5, §7.9, 10e): only
 * with a non-zero exit, never for a runner failure (that is `sandbox_unavailable`), and only when a
 * line has the shape real programs print for EPERM/EACCES/EROFS — so `echo sandbox denied` or a
 * test log saying "denied" is not a denial.
 */
export function detectSandboxDenial(query: SandboxDenialQuery): SandboxDenial | undefined {
  if (query.exitCode === 0 || detectRunnerFailure(query) !== undefined) return undefined;
  const lines: string[] = [];
  const paths: DeniedPath[] = [];
  for (const rawLine of query.output.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.length > 4096) continue;
    const entry = readLine(line);
    if (entry === undefined) continue;
    // EBUSY and ENOENT are everyday (a busy mount, a locked file, a missing folder): a denial only on a path the policy denies.
    if (entry.busy && query.isPathDenied === undefined) continue;
    const access = entry.access;
    const denied = query.isPathDenied === undefined
      ? entry.paths
      : entry.paths.filter((path) => query.isPathDenied?.(path, access) === true);
    const counts = denied.length > 0 || (!entry.busy && entry.paths.length === 0 && (query.isPathDenied === undefined || entry.readOnly));
    if (!counts) continue;
    if (lines.length < maximumEntries && !lines.includes(line)) lines.push(line);
    for (const path of denied) {
      if (paths.length < maximumEntries && !paths.some((known) => known.path === path && known.access === access)) {
        paths.push({ path, access });
      }
    }
  }
  return lines.length === 0 ? undefined : { lines, paths };
}

function readLine(line: string): { paths: string[]; access: PathAccess; readOnly: boolean; busy: boolean } | undefined {
  // busy: counts only for paths the policy denies (EBUSY, and ENOENT of a folder being made).
  for (const shape of lineShapes) {
    const match = shape.expression.exec(line);
    if (match === null) continue;
    const read = shape.read(match);
    const paths = read.paths.map((path) => path.trim()).filter((path) => path !== '');
    // Without a path, only EROFS (or a runtime's errno form) is specific enough to trust.
    if (paths.length === 0 && !read.readOnly && read.pathless !== true) continue;
    const busy = read.busy === true || read.policyOnly === true;
    return { paths, access: busy ? 'write' : inferAccess(line, read.program, read.readOnly), readOnly: read.readOnly, busy };
  }
  return undefined;
}

/** EROFS is always a write; otherwise the verb in the message (or a reading program) decides. */
function inferAccess(line: string, program: string | undefined, readOnly: boolean): PathAccess {
  if (readOnly || writeWords.test(line)) return 'write';
  if (readWords.test(line) || (program !== undefined && readingPrograms.has(program))) return 'read';
  return 'write';
}

/** Paths in the middle of a tool's message: quoted names first, else path-like tokens, else a lone name. */
function pathsInText(text: string): string[] {
  const quoted = [...text.matchAll(/'([^']+)'|‘([^’]+)’|"([^"]+)"|`([^`']+)'/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? match[4] ?? '',
  );
  // `cannot copy 'A' to 'B'` (cp, git init's templates): only the destination is written. A move
  // writes both directories, so both names stay.
  if (quoted.length > 1 && /\bcopy\b/i.test(text) && /['’"`]\s+to\s+['‘"`]/.test(text)) return quoted.slice(-1);
  if (quoted.length > 0) return quoted;
  const tokens = text.split(/\s+/).filter((token) => token.includes('/'));
  if (tokens.length > 0) return tokens;
  return /^\S+$/.test(text) ? [text] : [];
}
