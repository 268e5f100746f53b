import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitScanStatistics } from './git-files.js';

/**
 * The gitlinks (mode 160000 entries: submodules and embedded repositories) of a git index, read
 * from the index file itself (gitformat-index(5), versions 2–4, SHA-1 and SHA-256, a split
 * index's shared part). git recurses into each populated one on `status`, `diff`, `commit` and
 * `fetch`, so these are repositories git visits from a root.
 */
export interface Gitlinks {
  /** Paths relative to the work tree, as in the index. */
  readonly paths: readonly string[];
  /** False when the index could not be read whole (too large, unknown format, too many gitlinks). */
  readonly complete: boolean;
}

export const maximumIndexBytes = 64 * 1024 * 1024;
/** Default number of gitlinks read from one index (the policy protects each, so they cost mounts). */
export const maximumGitlinks = 256;
const gitlinkMode = 0o160000;

const noGitlinks: Gitlinks = Object.freeze({ paths: Object.freeze([]), complete: true });
const unreadable: Gitlinks = Object.freeze({ paths: Object.freeze([]), complete: false });

/** Parsed indexes by path, kept while the file's identity and times stay the same (one parse per change). */
const cache = new Map<string, { readonly key: string; readonly gitlinks: Gitlinks }>();

function identity(stats: fs.Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/** Git's offset encoding of index v4 (a big-endian base-128 varint with an offset per byte). */
function readVarint(bytes: Buffer, start: number): { value: number; next: number } | undefined {
  let at = start;
  let byte = bytes[at++];
  if (byte === undefined) return undefined;
  let value = byte & 127;
  while (byte & 128) {
    byte = bytes[at++];
    if (byte === undefined || value > 2 ** 40) return undefined;
    value = ((value + 1) * 128) + (byte & 127);
  }
  return { value, next: at };
}

interface ParsedIndex {
  readonly gitlinks: string[];
  readonly sharedIndex: string | undefined;
  readonly complete: boolean;
}

/** One index file: its entries, and the hash of the shared index a split index names (`link`). */
function parseIndex(bytes: Buffer, hashBytes: number, limit: number): ParsedIndex | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = bytes.readUInt32BE(8);
  const gitlinks: string[] = [];
  let previous = '';
  let at = 12;
  for (let index = 0; index < count; index += 1) {
    const flagsAt = at + 40 + hashBytes;
    if (flagsAt + 2 > bytes.length) return undefined;
    const mode = bytes.readUInt32BE(at + 24);
    const flags = bytes.readUInt16BE(flagsAt);
    const nameAt = flagsAt + 2 + (version >= 3 && (flags & 0x4000) !== 0 ? 2 : 0);
    let name: string;
    if (version === 4) {
      const strip = readVarint(bytes, nameAt);
      if (strip === undefined || strip.value > previous.length) return undefined;
      const end = bytes.indexOf(0, strip.next);
      if (end < 0) return undefined;
      name = previous.slice(0, previous.length - strip.value) + bytes.toString('utf8', strip.next, end);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, nameAt);
      if (end < 0) return undefined;
      name = bytes.toString('utf8', nameAt, end);
      at += Math.floor((end - at + 8) / 8) * 8; // entries are NUL-padded to a multiple of 8
    }
    previous = name;
    if ((mode & 0o170000) === gitlinkMode) {
      if (gitlinks.length === limit) return { gitlinks, sharedIndex: undefined, complete: false };
      gitlinks.push(name);
    }
  }
  return { gitlinks, sharedIndex: sharedIndexOf(bytes, at, hashBytes), complete: true };
}

/** The `link` extension of a split index names `sharedindex.<hash>`, which holds the other entries. */
function sharedIndexOf(bytes: Buffer, start: number, hashBytes: number): string | undefined {
  let at = start;
  while (at + 8 <= bytes.length - hashBytes) {
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    if (signature === 'link' && size >= hashBytes) return bytes.toString('hex', at + 8, at + 8 + hashBytes);
    at += 8 + size;
  }
  return undefined;
}

function readIndexFile(file: string, statistics: GitScanStatistics | undefined): { bytes: Buffer; stats: fs.Stats } | 'missing' | 'unreadable' {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch {
    return 'missing';
  }
  if (!stats.isFile() || stats.size > maximumIndexBytes) return 'unreadable';
  try {
    if (statistics !== undefined) statistics.readFiles += 1;
    return { bytes: fs.readFileSync(file), stats };
  } catch {
    return 'unreadable';
  }
}

/** The gitlinks of the index of `gitDirectory` (`index`, and its shared index when split). */
export function readGitlinks(gitDirectory: string, hashBytes: 20 | 32, statistics?: GitScanStatistics, limit = maximumGitlinks): Gitlinks {
  const file = path.posix.join(gitDirectory, 'index');
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch {
    return noGitlinks;
  }
  const key = `${identity(stats)}:${hashBytes}:${limit}`;
  const cached = cache.get(`${file}\0${limit}`);
  if (cached !== undefined && cached.key === key) return cached.gitlinks;
  const gitlinks = parseGitlinks(gitDirectory, file, hashBytes, statistics, limit);
  cache.set(`${file}\0${limit}`, { key, gitlinks });
  if (cache.size > 1024) cache.delete(cache.keys().next().value as string);
  return gitlinks;
}

function parseGitlinks(gitDirectory: string, file: string, hashBytes: 20 | 32, statistics: GitScanStatistics | undefined, limit: number): Gitlinks {
  const main = readIndexFile(file, statistics);
  if (main === 'missing') return noGitlinks;
  if (main === 'unreadable') return unreadable;
  const parsed = parseIndex(main.bytes, hashBytes, limit);
  if (parsed === undefined) return unreadable;
  const paths = new Set(parsed.gitlinks);
  let complete = parsed.complete;
  if (parsed.sharedIndex !== undefined) {
    const shared = readIndexFile(path.posix.join(gitDirectory, `sharedindex.${parsed.sharedIndex}`), statistics);
    const sharedParsed = typeof shared === 'string' ? undefined : parseIndex(shared.bytes, hashBytes, limit);
    if (sharedParsed === undefined) complete = false;
    else {
      for (const name of sharedParsed.gitlinks) paths.add(name);
      complete &&= sharedParsed.complete;
    }
  }
  return Object.freeze({ paths: Object.freeze([...paths].slice(0, limit)), complete: complete && paths.size <= limit });
}
