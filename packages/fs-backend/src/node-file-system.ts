import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type {
  AsyncFileSystem,
  AtomicWriteOptions,
  AtomicWriteResult,
  ReadChunksOptions,
  ReadDirectoryOptions,
  ReadFileOptions,
  ReadLinesOptions,
} from './async-file-system.js';
import { chmodFolder, lstat, mkdir, readdirEntries, readlink, realpath, rmdir, stat, symlink, unlink } from './byte-exact-fs.js';
import { openCheckedFolder } from './checked-folder.js';
import type { DirectoryEntry } from './directory-entry.js';
import type { LinesSummary } from './file-line.js';
import type { FileKind, FileStat } from './file-stat.js';
import { FileSystemError } from './file-system-error.js';
import { FileTooLargeError } from './file-too-large-error.js';
import { forEachChunk } from './for-each-chunk.js';
import { hashOpenFile } from './hash-open-file.js';
import { LineSplitter } from './line-splitter.js';
import { openRegularFile } from './open-regular-file.js';
import { pathFromBytes, toNodePath } from './path-bytes.js';
import { requireAbsolutePath } from './require-absolute-path.js';
import { throwIfAborted } from './throw-if-aborted.js';
import { toFileSystemError } from './to-file-system-error.js';
import { writeFileAtomically } from './write-file-atomically.js';

/** §7.1: each line keeps at most its first 8,000 bytes. */
export const DEFAULT_MAX_LINE_BYTES = 8000;
/** Default bound of `readFile`: nothing reads a whole file into memory unbounded (the spill cap, §9). */
export const DEFAULT_READ_FILE_MAX_BYTES = 64 * 1024 * 1024;
const defaultChunkBytes = 1024 * 1024;

/** Options of {@link NodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** Size of each read (default 1 MiB). Small values are for tests of chunk boundaries. */
  readonly chunkBytes?: number;
}

function kindOf(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileKind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

function toFileStat(stats: Stats): FileStat {
  return { kind: kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode & 0o7777 };
}

function requirePositiveInteger(value: number, name: string, path: string): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new FileSystemError({ code: 'invalid_argument', path, message: `${name} must be a positive integer, got ${String(value)}.` });
  }
}

/**
 * The local `AsyncFileSystem` (§4) over `node:fs`. Stateless apart from its chunk size; one
 * instance can serve every session.
 */
export class NodeFileSystem implements AsyncFileSystem {
  readonly #chunkBytes: number;

  constructor(options: NodeFileSystemOptions = {}) {
    const chunkBytes = options.chunkBytes ?? defaultChunkBytes;
    requirePositiveInteger(chunkBytes, 'chunkBytes', '');
    this.#chunkBytes = chunkBytes;
  }

  async stat(path: string): Promise<FileStat> {
    requireAbsolutePath(path, 'stat');
    try {
      return toFileStat(await stat(path));
    } catch (error) {
      throw toFileSystemError(error, 'stat', path);
    }
  }

  async lstat(path: string): Promise<FileStat> {
    requireAbsolutePath(path, 'stat');
    try {
      return toFileStat(await lstat(path));
    } catch (error) {
      throw toFileSystemError(error, 'stat', path);
    }
  }

  async realpath(path: string): Promise<string> {
    requireAbsolutePath(path, 'resolve');
    try {
      return await realpath(path);
    } catch (error) {
      throw toFileSystemError(error, 'resolve', path);
    }
  }

  async readdir(path: string, options: ReadDirectoryOptions = {}): Promise<DirectoryEntry[]> {
    requireAbsolutePath(path, 'list');
    throwIfAborted(options.signal, 'list', path);
    let entries;
    try {
      entries = await readdirEntries(path);
    } catch (error) {
      throw toFileSystemError(error, 'list', path);
    }
    const result: DirectoryEntry[] = [];
    for (const { name, dirent } of entries) {
      let kind = kindOf(dirent);
      if (kind === 'symlink' && options.followSymlinks === true) {
        throwIfAborted(options.signal, 'list', path);
        try {
          kind = kindOf(await stat(join(path, name)));
        } catch {
          // Dangling or looping: stays `symlink`.
        }
      }
      result.push({ name, kind });
    }
    return result;
  }

  /**
   * The entries of the folder at `path` (links not followed) and whether `path` is still a folder
   * once they were read — `undefined` when it cannot be listed or is not a folder (any more, e.g.
   * swapped for a link). Synchronous, for a caller that lists thousands of local folders in a row
   * (grep and glob's walk): one `readdir` and one `lstat` without a round trip through libuv's
   * thread pool each. Not part of `AsyncFileSystem`; a host's own file system has no such call.
   */
  listFolderSync(path: string): DirectoryEntry[] | undefined {
    requireAbsolutePath(path, 'list');
    try {
      const nodePath = toNodePath(path);
      let entries = readdirSync(nodePath, { withFileTypes: true }).map((entry): DirectoryEntry => ({ name: entry.name, kind: kindOf(entry) }));
      // Exact file names: a U+FFFD may be a byte that is not UTF-8; only then is the folder read as bytes.
      if (entries.some((entry) => entry.name.includes('\uFFFD'))) {
        entries = readdirSync(nodePath, { withFileTypes: true, encoding: 'buffer' }).map((entry): DirectoryEntry => ({ name: pathFromBytes(entry.name), kind: kindOf(entry) }));
      }
      return lstatSync(nodePath).isDirectory() ? entries : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Architecture §3.7 "Races": each missing folder is made inside the folder opened just before
   * it, never through a link (`CheckedFolder`), so a folder on the way swapped for a link cannot
   * make this create folders elsewhere. `path` must be canonical: a link on the way is refused.
   */
  async mkdirp(path: string): Promise<void> {
    requireAbsolutePath(path, 'create directory');
    const folder = await openCheckedFolder(path, { operation: 'create directory', path }, true);
    await folder.close();
  }

  /** The entry is removed from its folder as held without following links (§3.7), so a link swapped in on the way cannot redirect it. */
  async unlink(path: string): Promise<void> {
    requireAbsolutePath(path, 'delete');
    const name = basename(path);
    if (path.endsWith('/') || name === '' || name === '.' || name === '..') {
      throw new FileSystemError({ code: 'invalid_path', path, message: `Cannot delete ${path}: the path does not name a file.` });
    }
    const folder = await openCheckedFolder(dirname(path), { operation: 'delete', path });
    try {
      await unlink(folder.pathOf(name));
    } catch (error) {
      throw toFileSystemError(error, 'delete', path);
    } finally {
      await folder.close();
    }
  }

  /** Reads the link as an entry of its folder held without following links (§3.7). */
  async readlink(path: string): Promise<string> {
    return this.#inFolder(path, 'read the link', async (entry) => {
      try {
        return await readlink(entry);
      } catch (error) {
        if ((error as { code?: string }).code === 'EINVAL') throw new FileSystemError({ code: 'invalid_argument', path, message: `Cannot read the link ${path}: it is not a symbolic link.` });
        throw error;
      }
    });
  }

  /** Creates the link in its folder held without following links (§3.7); never replaces anything. */
  async symlink(target: string, path: string): Promise<void> {
    if (target === '' || target.includes('\0')) throw new FileSystemError({ code: 'invalid_argument', path, message: `Cannot create the link ${path}: its target must be a non-empty text without NUL.` });
    await this.#inFolder(path, 'create the link', async (entry) => symlink(target, entry));
  }

  /** Creates one folder in its parent held without following links (§3.7), with exactly `mode` (not masked by the umask). */
  async mkdir(path: string, mode: number): Promise<void> {
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
      throw new FileSystemError({ code: 'invalid_argument', path, message: `mkdir: mode must be permission bits (0 to 0o7777), got ${String(mode)}.` });
    }
    await this.#inFolder(path, 'create the folder', async (entry) => {
      await mkdir(entry, { mode: 0o700 });
      await chmodFolder(entry, mode);
    });
  }

  /** Removes an empty folder of its parent held without following links (§3.7); a link there is not a folder (`not_a_directory`). */
  async rmdir(path: string): Promise<void> {
    await this.#inFolder(path, 'remove the folder', async (entry) => {
      if ((await lstat(entry)).isSymbolicLink()) throw Object.assign(new Error('a link, not a folder'), { code: 'ENOTDIR' });
      await rmdir(entry);
    });
  }

  /** Runs `action` on the entry `basename(path)` of its folder, held as `unlink` holds it. */
  async #inFolder<T>(path: string, operation: string, action: (entry: string) => Promise<T>): Promise<T> {
    requireAbsolutePath(path, operation);
    const name = basename(path);
    if (path.endsWith('/') || name === '' || name === '.' || name === '..') {
      throw new FileSystemError({ code: 'invalid_path', path, message: `Cannot ${operation} ${path}: the path does not name an entry of a folder.` });
    }
    const folder = await openCheckedFolder(dirname(path), { operation, path });
    try {
      return await action(folder.pathOf(name));
    } catch (error) {
      throw toFileSystemError(error, operation, path);
    } finally {
      await folder.close();
    }
  }

  async readFile(path: string, options: ReadFileOptions = {}): Promise<Uint8Array> {
    requireAbsolutePath(path, 'read');
    const maxBytes = options.maxBytes ?? DEFAULT_READ_FILE_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      throw new FileSystemError({ code: 'invalid_argument', path, message: `maxBytes must be a non-negative integer, got ${String(maxBytes)}.` });
    }
    throwIfAborted(options.signal, 'read', path);
    const { handle, size } = await openRegularFile(path, 'read');
    try {
      if (size > maxBytes) throw new FileTooLargeError(path, size, maxBytes);
      // One byte of room beyond the limit tells a file that grew past it after fstat. `Slow`: never
      // a view into Node's shared pool, whose other bytes `result.buffer` would expose.
      let buffer = Buffer.allocUnsafeSlow(Math.min(maxBytes + 1, size + 1));
      let length = 0;
      for (;;) {
        throwIfAborted(options.signal, 'read', path);
        if (length === buffer.length) {
          if (length > maxBytes) throw new FileTooLargeError(path, length, maxBytes);
          const grown = Buffer.allocUnsafeSlow(Math.min(maxBytes + 1, buffer.length * 2));
          buffer.copy(grown, 0, 0, length);
          buffer = grown;
        }
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      if (buffer.length - length <= 1) {
        // Usually the one spare byte is left: clear it rather than copy the whole file.
        buffer.fill(0, length);
        return buffer.subarray(0, length);
      }
      // The file shrank after fstat: do not keep the larger allocation behind the result.
      const exact = Buffer.allocUnsafeSlow(length);
      buffer.copy(exact, 0, 0, length);
      return exact;
    } catch (error) {
      throw toFileSystemError(error, 'read', path);
    } finally {
      await handle.close();
    }
  }

  async *readChunks(path: string, options: ReadChunksOptions = {}): AsyncIterable<Uint8Array> {
    requireAbsolutePath(path, 'read');
    const chunkBytes = options.chunkBytes ?? this.#chunkBytes;
    requirePositiveInteger(chunkBytes, 'chunkBytes', path);
    throwIfAborted(options.signal, 'read', path);
    const opened = await openRegularFile(path, 'read');
    const { handle } = opened;
    // Callers may keep the chunks they get, so a chunk must not pin a much larger read buffer
    // (1 MiB behind each line of a small file, for grep over many files). Buffers are sized to
    // what is left by the fstat size, plus one byte to notice a file that grew.
    let expectedSize = opened.size;
    try {
      let position = 0;
      let buffer: Buffer | undefined;
      for (;;) {
        throwIfAborted(options.signal, 'read', path);
        buffer ??= Buffer.allocUnsafeSlow(Math.min(chunkBytes, Math.max(expectedSize - position, 0) + 1));
        let bytesRead: number;
        try {
          ({ bytesRead } = await handle.read(buffer, 0, buffer.length, position));
        } catch (error) {
          throw toFileSystemError(error, 'read', path);
        }
        if (bytesRead === 0) return;
        position += bytesRead;
        // Longer than fstat said: it is growing, so go back to full-size reads.
        if (position > expectedSize) expectedSize = Number.MAX_SAFE_INTEGER;
        if (bytesRead * 2 >= buffer.length) {
          const chunk = buffer.subarray(0, bytesRead);
          buffer = undefined;
          yield chunk;
        } else {
          // A short read: hand out an exact copy and reuse the buffer.
          const chunk = Buffer.allocUnsafeSlow(bytesRead);
          buffer.copy(chunk, 0, 0, bytesRead);
          yield chunk;
        }
      }
    } finally {
      await handle.close();
    }
  }

  async readLines(path: string, options: ReadLinesOptions = {}): Promise<LinesSummary> {
    requireAbsolutePath(path, 'read');
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const firstLine = options.firstLine ?? 1;
    requirePositiveInteger(maxLineBytes, 'maxLineBytes', path);
    requirePositiveInteger(firstLine, 'firstLine', path);
    throwIfAborted(options.signal, 'read', path);
    const { handle } = await openRegularFile(path, 'read');
    try {
      const hash = createHash('sha256');
      const splitter = new LineSplitter({ maxLineBytes, firstLine, onLine: options.onLine });
      const byteLength = await forEachChunk(
        handle,
        this.#chunkBytes,
        (chunk) => {
          hash.update(chunk);
          splitter.push(chunk);
        },
        { signal: options.signal, operation: 'read', path },
      );
      const lineCount = splitter.finish();
      return { lineCount, byteLength, sha256: hash.digest('hex') };
    } finally {
      await handle.close();
    }
  }

  async sha256File(path: string, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    requireAbsolutePath(path, 'hash');
    throwIfAborted(options.signal, 'hash', path);
    const { handle } = await openRegularFile(path, 'hash');
    try {
      return await hashOpenFile(handle, this.#chunkBytes, { signal: options.signal, operation: 'hash', path });
    } finally {
      await handle.close();
    }
  }

  async atomicWrite(path: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<AtomicWriteResult> {
    requireAbsolutePath(path, 'write');
    return writeFileAtomically(path, content, options, this.#chunkBytes);
  }
}
