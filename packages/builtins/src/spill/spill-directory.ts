import { lstat, readdir, unlink } from 'node:fs/promises';
import { MAX_SPILL_BYTES, sanitizeSpillId, SPILL_BUFFER_BYTES, type SpillSink } from '@openwork/tools-contract';
import { BuiltinsError } from '../context/builtins-error.js';
import { FileSpillSink } from './file-spill-sink.js';
import type { SpillLocation } from './spill-location.js';
import { SpillWriter } from './spill-writer.js';

/** How a session's spill directory is set up. */
export interface SpillDirectoryOptions {
  /** Absolute OpenWork home (`~/.openwork` by default; configurable, tests use a temp dir). */
  readonly openworkHome: string;
  /** The session's ID; sanitised with `sanitizeSpillId`. */
  readonly sessionId: string;
  /** When given and the directory is below it, paths are shown as `~/…` (what `read` expands). */
  readonly homeDirectory?: string;
  /** Cap of one file, default 64 MiB (§9 `MAX_SPILL_BYTES`). Smaller values are for tests. */
  readonly maxBytes?: number;
  /** In-memory buffer of a `SpillWriter` before it streams to disk, default 256 KiB (§9). */
  readonly bufferBytes?: number;
  /** Bytes all spill files of the session may hold together, default 256 MiB (`MAX_SESSION_SPILL_BYTES`). */
  readonly maxTotalBytes?: number;
  /** Spill files the session may hold, default 200 (`MAX_SESSION_SPILL_FILES`). */
  readonly maxFiles?: number;
}

/** The default bound of one session's spill files together (docs/decisions/0099-spill-bounded-per-session.md): four full 64 MiB outputs. */
export const MAX_SESSION_SPILL_BYTES = 256 * 1024 * 1024;
/** The default number of spill files one session keeps. */
export const MAX_SESSION_SPILL_FILES = 200;

/** What `makeRoom` removed: the oldest spill files of the session, and how to say so. */
export interface SpillPruning {
  readonly removed: readonly string[];
  readonly removedBytes: number;
  /** One line for the result that caused it. */
  readonly note: string;
}

/**
 * One session's spill directory (§8.2): `<openwork home>/spill/<session-id>/`, one file per tool
 * call, `<tool-call-id>.txt`, both IDs passed through `sanitizeSpillId` so no ID can leave the
 * directory. The OpenWork home is hard-protected (architecture §3.2): the model can read these
 * files, no tool or sandboxed process can write them. Core creates one per session, passes the
 * same one whenever it rebuilds the session's toolsets, and deletes the directory with the
 * session (retention is core's, §8.2).
 */
export class SpillDirectory {
  /** Absolute path of this session's directory. */
  readonly directory: string;
  readonly sessionId: string;
  readonly maxBytes: number;
  readonly bufferBytes: number;
  readonly maxTotalBytes: number;
  readonly maxFiles: number;
  readonly #displayDirectory: string;
  readonly #sink: FileSpillSink;

  constructor(options: SpillDirectoryOptions) {
    const home = trimSlashes(options.openworkHome);
    if (!home.startsWith('/')) throw new BuiltinsError(`SpillDirectory needs an absolute openworkHome, got ${JSON.stringify(options.openworkHome)}.`);
    this.sessionId = options.sessionId;
    this.directory = `${home === '/' ? '' : home}/spill/${sanitizeSpillId(options.sessionId)}`;
    this.maxBytes = positive(options.maxBytes ?? MAX_SPILL_BYTES, 'maxBytes');
    this.bufferBytes = positive(options.bufferBytes ?? SPILL_BUFFER_BYTES, 'bufferBytes');
    this.maxTotalBytes = positive(options.maxTotalBytes ?? MAX_SESSION_SPILL_BYTES, 'maxTotalBytes');
    this.maxFiles = positive(options.maxFiles ?? MAX_SESSION_SPILL_FILES, 'maxFiles');
    this.#displayDirectory = homeRelative(this.directory, options.homeDirectory);
    this.#sink = new FileSpillSink((callId) => this.location(callId), this.maxBytes);
  }

  /** Where the spill file of `callId` is, and how it is shown. */
  location(callId: string): SpillLocation {
    const name = `${sanitizeSpillId(callId)}.txt`;
    return Object.freeze({ path: `${this.directory}/${name}`, displayPath: `${this.#displayDirectory}/${name}` });
  }

  /** The `SpillSink` to pass to `finalize` (fallback cut of oversized results). */
  sink(): SpillSink {
    return this.#sink;
  }

  /**
   * Before a call starts a spill file that may grow to `maxBytes` (a bash command, a background
   * task): removes the session's oldest spill files (by modification time) until one more file fits
   * — at most `maxFiles` files, and room for a full one within `maxTotalBytes`. Returns what it
   * removed, with a line for that call's result, or undefined when nothing had to go. Files of
   * running tasks keep being written, so they are the newest and go last; a file that vanishes
   * meanwhile is simply not counted.
   */
  async makeRoom(callId: string): Promise<SpillPruning | undefined> {
    const own = `${sanitizeSpillId(callId)}.txt`;
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch {
      return undefined; // no folder yet: nothing to remove
    }
    const files: { name: string; bytes: number; modified: number }[] = [];
    for (const name of names) {
      // Spill files only: a running command's script (`<call>.command.sh`) is not one.
      if (name === own || !name.endsWith('.txt')) continue;
      const stats = await lstat(`${this.directory}/${name}`).catch(() => undefined);
      if (stats?.isFile() === true) files.push({ name, bytes: stats.size, modified: stats.mtimeMs });
    }
    files.sort((left, right) => left.modified - right.modified || (left.name < right.name ? -1 : 1));
    let total = files.reduce((sum, file) => sum + file.bytes, 0);
    let count = files.length;
    const room = Math.max(0, this.maxTotalBytes - this.maxBytes);
    const removed: string[] = [];
    let removedBytes = 0;
    for (const file of files) {
      if (count + 1 <= this.maxFiles && total <= room) break;
      const gone = await unlink(`${this.directory}/${file.name}`).then(
        () => true,
        (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
      );
      if (!gone) continue;
      removed.push(`${this.#displayDirectory}/${file.name}`);
      removedBytes += file.bytes;
      total -= file.bytes;
      count -= 1;
    }
    if (removed.length === 0) return undefined;
    const what = removed.length === 1 ? 'the oldest spill file' : `the ${removed.length} oldest spill files`;
    const shown = removed.length <= 5 ? removed.join(', ') : `${removed.slice(0, 5).join(', ')} and ${removed.length - 5} more`;
    return {
      removed,
      removedBytes,
      note: `[spill: removed ${what} of this session (${formatBytes(removedBytes)}): ${shown} — a session keeps at most ${formatBytes(this.maxTotalBytes)} in ${this.maxFiles} spill files]`,
    };
  }

  /** A buffered, capped writer for the full list of one call (grep, glob). */
  openWriter(callId: string): SpillWriter {
    return new SpillWriter(this.location(callId), this.maxBytes, this.bufferBytes);
  }
}

function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

function trimSlashes(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function homeRelative(directory: string, homeDirectory: string | undefined): string {
  if (homeDirectory === undefined) return directory;
  const home = trimSlashes(homeDirectory);
  if (home === '/' || !home.startsWith('/')) return directory;
  return directory.startsWith(`${home}/`) ? `~/${directory.slice(home.length + 1)}` : directory;
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new BuiltinsError(`SpillDirectory ${name} must be a positive integer, got ${String(value)}.`);
  return value;
}
