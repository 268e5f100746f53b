import type { DirectoryEntry } from './directory-entry.js';
import type { FileLine, LinesSummary } from './file-line.js';
import type { FileStat } from './file-stat.js';

/** Options of {@link AsyncFileSystem.readdir}. */
export interface ReadDirectoryOptions {
  /** Report the kind of a symlink's target instead of `symlink` (default `false`: walkers do not follow links, §7.6). */
  readonly followSymlinks?: boolean;
  readonly signal?: AbortSignal;
}

/** Options of {@link AsyncFileSystem.readFile}. */
export interface ReadFileOptions {
  /** Refuse larger files with `FileTooLargeError` before reading them (default 64 MiB). */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
}

/** Options of {@link AsyncFileSystem.readChunks}. */
export interface ReadChunksOptions {
  /** Upper bound of one chunk (default 1 MiB). */
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
}

/** Options of {@link AsyncFileSystem.readLines}. */
export interface ReadLinesOptions {
  /** Bytes kept of each delivered line; the rest is dropped while streaming (default 8,000, §7.1). */
  readonly maxLineBytes?: number;
  /** 1-based number of the first line handed to `onLine` (default 1). Earlier lines are only counted and hashed. */
  readonly firstLine?: number;
  /**
   * Called synchronously for each line from `firstLine` on, in order. Return `false` to receive no
   * more lines; reading, counting and hashing still go on to the end of the file. Lines that are
   * not delivered cost no per-line allocation.
   */
  readonly onLine?: (line: FileLine) => boolean | void;
  readonly signal?: AbortSignal;
}

/** Options of {@link AsyncFileSystem.atomicWrite}. */
export interface AtomicWriteOptions {
  /**
   * Compare-before-rename (§7.2, §7.3): a SHA-256 hex the regular file at the target must still
   * have just before the rename, or `null` when nothing may exist there. `undefined`: no check.
   * A symlink at the target never matches. On mismatch: `StaleContentError`, nothing overwritten.
   */
  readonly expectedHash?: string | null;
  /** Permission bits of the result. Default: those of the file being replaced, else `0o666` minus the umask. */
  readonly mode?: number;
  readonly signal?: AbortSignal;
}

/** What {@link AsyncFileSystem.atomicWrite} wrote. */
export interface AtomicWriteResult {
  /** SHA-256 hex of the new content, for the observation table (§7.4). */
  readonly sha256: string;
  /** Nothing existed at the target before (measured before writing). */
  readonly created: boolean;
  readonly byteLength: number;
}

/**
 * Everything the built-in tools do to files goes through this interface (§4), so a host can swap
 * in a remote implementation. Paths must be absolute; callers pass the checked real path from
 * `resolvePath` (§6.2), and nothing here resolves a relative path against a process cwd. Failures
 * throw `FileSystemError` (see `code`). Paths and names are exact (exact file names): a lone U+DC80–U+DCFF
 * in one stands for a byte that is not UTF-8 (`pathFromBytes`/`pathToBytes`), in what is passed in
 * and in what comes back.
 */
export interface AsyncFileSystem {
  /** Follows symlinks. */
  stat(path: string): Promise<FileStat>;
  /** Does not follow a symlink at `path`. */
  lstat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  /** One level, in no particular order. */
  readdir(path: string, options?: ReadDirectoryOptions): Promise<DirectoryEntry[]>;
  /** Creates the directory and missing parents; an existing directory is fine. `NodeFileSystem`: a canonical path, never through a link (§3.7). */
  mkdirp(path: string): Promise<void>;
  /** Removes a file or a symlink itself (never its target). `NodeFileSystem`: a canonical path, never through a link (§3.7). */
  unlink(path: string): Promise<void>;
  /** The whole content of a regular file, refused above `maxBytes`. */
  readFile(path: string, options?: ReadFileOptions): Promise<Uint8Array>;
  /** The content of a regular file as a sequence of fresh chunks, for scanners (grep) that must not hold whole files. */
  readChunks(path: string, options?: ReadChunksOptions): AsyncIterable<Uint8Array>;
  /** Streams every line once: delivers capped lines, counts all lines and hashes the whole file (§7.1). */
  readLines(path: string, options?: ReadLinesOptions): Promise<LinesSummary>;
  /** Lowercase hex SHA-256 of a regular file, streamed. */
  sha256File(path: string, options?: { readonly signal?: AbortSignal }): Promise<string>;
  /** Replaces the file at `path` all at once: temp file in the same directory, fsync, compare, rename (§6.2). */
  atomicWrite(path: string, content: string | Uint8Array, options?: AtomicWriteOptions): Promise<AtomicWriteResult>;
  // Optional: what undo and reapply of a sandboxed command's changes need besides files (folders
  // and links, architecture §3.10). An implementation without them cannot undo those changes.
  /** The target of the symbolic link at `path` (not followed). `NodeFileSystem`: a canonical path, never through a link. */
  readlink?(path: string): Promise<string>;
  /** Creates a symbolic link at `path` pointing at `target`; fails with `already_exists` when anything is there. */
  symlink?(target: string, path: string): Promise<void>;
  /** Creates one folder with exactly these permission bits; its parent must exist, and nothing may be at `path`. */
  mkdir?(path: string, mode: number): Promise<void>;
  /** Removes an empty folder (`not_empty` otherwise); never follows a link at `path`. */
  rmdir?(path: string): Promise<void>;
}
