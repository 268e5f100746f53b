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
  readonly #displayDirectory: string;
  readonly #sink: FileSpillSink;

  constructor(options: SpillDirectoryOptions) {
    const home = trimSlashes(options.openworkHome);
    if (!home.startsWith('/')) throw new BuiltinsError(`SpillDirectory needs an absolute openworkHome, got ${JSON.stringify(options.openworkHome)}.`);
    this.sessionId = options.sessionId;
    this.directory = `${home === '/' ? '' : home}/spill/${sanitizeSpillId(options.sessionId)}`;
    this.maxBytes = positive(options.maxBytes ?? MAX_SPILL_BYTES, 'maxBytes');
    this.bufferBytes = positive(options.bufferBytes ?? SPILL_BUFFER_BYTES, 'bufferBytes');
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

  /** A buffered, capped writer for the full list of one call (grep, glob). */
  openWriter(callId: string): SpillWriter {
    return new SpillWriter(this.location(callId), this.maxBytes, this.bufferBytes);
  }
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
