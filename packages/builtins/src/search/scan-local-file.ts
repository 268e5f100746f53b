// The search worker's file reader. Built-in tools otherwise reach files only through
// `AsyncFileSystem` (§4); this is the local backend's fast path for grep, used only when the
// session's file system is the plain `NodeFileSystem`, with the same rules: regular files only,
// O_NONBLOCK so a FIFO swapped in cannot hang the read, and no symbolic link followed.
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { toNodePath } from '@openwork/fs-backend';
import { ByteKernel } from './byte-kernel.js';
import type { FileOutcome } from './file-outcome.js';
import { LongLineProbe, RegionAssembler } from './region-assembler.js';
import { BINARY_PROBE_BYTES, MAX_SEARCH_LINE_BYTES } from './search-limits.js';

/** Files up to this size are read whole and searched as one region. */
const WHOLE_FILE_BYTES = 16 * 1024 * 1024;
/** Larger files are read in chunks of this size. */
const CHUNK_BYTES = 8 * 1024 * 1024;

const kernel = ByteKernel.get();
let scratch = kernel === undefined ? Buffer.allocUnsafeSlow(1024 * 1024) : kernel.data(1024 * 1024);

/**
 * The thread's read buffer, at least `size` bytes, keeping what it holds: in the byte kernel's
 * memory when there is one (grep's loops then run on the file's bytes where they were read).
 */
function scratchOf(size: number): Buffer {
  if (scratch.length >= size) return scratch;
  const capacity = Math.max(size, scratch.length * 2);
  if (kernel !== undefined) {
    // Growing the memory keeps its bytes in place; only the view is taken again.
    scratch = kernel.data(capacity);
    return scratch;
  }
  const grown = Buffer.allocUnsafeSlow(capacity);
  scratch.copy(grown);
  scratch = grown;
  return scratch;
}

const hasProcFileDescriptors = process.platform === 'linux';
const FILE_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Whether the open file is the one the walk checked: the walk found `path` as a plain file of a
 * directory it had checked, but a link put in its place (or in place of a folder above it) before
 * the open would lead elsewhere, maybe to a credential file. On Linux the kernel says what was
 * opened; elsewhere O_NOFOLLOW guards the last component only.
 */
function isTheCheckedFile(descriptor: number, nodePath: string | Buffer): boolean {
  if (!hasProcFileDescriptors) return true;
  try {
    // A path with bytes that are not UTF-8 (exact file names) is compared as bytes.
    if (typeof nodePath === 'string') return readlinkSync(`/proc/self/fd/${descriptor}`) === nodePath;
    return readlinkSync(`/proc/self/fd/${descriptor}`, 'buffer').equals(nodePath);
  } catch {
    return true;
  }
}

/**
 * The folder of the files being read, opened once and checked once (a `readlink` per
 * file was a tenth of a search worker's time). Its descriptor was opened without following a
 * link at the end and the kernel said it leads to the walked path, so it is the checked folder
 * itself; its files are then opened through `/proc/self/fd/<folder>/<name>` with O_NOFOLLOW,
 * which looks the name up in that very folder whatever is put at its path meanwhile — the same
 * guarantee as checking each file. `'refused'`: the folder is not the walked one (or cannot be
 * opened); `'unchecked'`: the kernel cannot say (no `/proc`), so each file is checked as before.
 */
type CheckedFolder = number | 'refused' | 'unchecked';

/**
 * The folder kept open while consecutive files of it are read: one per batch of a search worker,
 * closed at its end (`close`), so a folder read again later is opened and checked again. A
 * `scanLocalFile` without one checks each file on its own.
 */
export class CheckedFolders {
  #current: { readonly path: string; readonly state: CheckedFolder } | undefined;

  /** The checked folder at `path` (the one already open, or opened and checked now). */
  at(path: string): CheckedFolder {
    if (this.#current?.path === path) return this.#current.state;
    this.close();
    const state = openAndCheckFolder(path);
    this.#current = { path, state };
    return state;
  }

  close(): void {
    if (typeof this.#current?.state === 'number') closeSync(this.#current.state);
    this.#current = undefined;
  }
}

function openAndCheckFolder(path: string): CheckedFolder {
  let descriptor: number;
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return 'refused';
  }
  let target: string | undefined;
  try {
    target = readlinkSync(`/proc/self/fd/${descriptor}`);
  } catch {
    target = undefined;
  }
  if (target === path) return descriptor;
  closeSync(descriptor);
  return target === undefined ? 'unchecked' : 'refused';
}

/**
 * Opens the file the walk found at `path` (regular or not: the caller asks `fstat`), or
 * `undefined` when it cannot, or it is not the checked file.
 */
function openCheckedFile(path: string, folders: CheckedFolders | undefined): number | undefined {
  const nodePath = toNodePath(path);
  const slash = path.lastIndexOf('/');
  if (folders !== undefined && hasProcFileDescriptors && typeof nodePath === 'string' && slash > 0) {
    const parent = folders.at(path.slice(0, slash));
    if (parent === 'refused') return undefined;
    if (parent !== 'unchecked') {
      try {
        return openSync(`/proc/self/fd/${parent}/${path.slice(slash + 1)}`, FILE_FLAGS);
      } catch {
        return undefined;
      }
    }
  }
  let descriptor: number;
  try {
    descriptor = openSync(nodePath, FILE_FLAGS);
  } catch {
    return undefined;
  }
  if (isTheCheckedFile(descriptor, nodePath)) return descriptor;
  closeSync(descriptor);
  return undefined;
}

function readFully(descriptor: number, buffer: Buffer, offset: number, length: number, position: number): number {
  let total = 0;
  while (total < length) {
    const read = readSync(descriptor, buffer, offset + total, length - total, position + total);
    if (read === 0) break;
    total += read;
  }
  return total;
}

/**
 * Reads a small file whole into the scratch buffer (it may have grown since `fstat`). One byte
 * more than `fstat` said is asked for: a read of a regular file that returns less than asked has
 * reached its end, so a file that did not grow costs one `read`, not a second one returning 0.
 */
function readWhole(descriptor: number, size: number): Buffer {
  let capacity = size + 1;
  let buffer = scratchOf(capacity);
  const first = readSync(descriptor, buffer, 0, capacity, 0);
  if (first < capacity) return buffer.subarray(0, first);
  let length = first + readFully(descriptor, buffer, first, capacity - first, first);
  while (length === capacity) {
    capacity *= 2;
    buffer = scratchOf(capacity);
    length += readFully(descriptor, buffer, length, capacity - length, length);
  }
  return buffer.subarray(0, length);
}

/**
 * Reads the regular file at `path` and hands its regions to `scan` (§7.6): small files whole,
 * large ones in chunks (after a probe for a line over 64 MiB when the file is larger than that).
 * With `stopsEarly` (files_with_matches, whose answer is known at the first match) a file larger
 * than the 64 KiB binary probe is read in chunks from the start, so the rest of it is never read
 * once `scan` has said it wants no more. With `folders`, the file's folder is checked once for
 * the consecutive files of it (`CheckedFolders`); without, the file itself is checked.
 */
export function scanLocalFile(path: string, scan: (region: Buffer, last: boolean) => boolean, stopsEarly = false, folders?: CheckedFolders): FileOutcome {
  const descriptor = openCheckedFile(path, folders);
  if (descriptor === undefined) return 'unreadable';
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile()) return 'unreadable';
    const assembler = new RegionAssembler(scan);
    if (stats.size <= WHOLE_FILE_BYTES && !(stopsEarly && stats.size > BINARY_PROBE_BYTES)) {
      assembler.pushWhole(readWhole(descriptor, stats.size));
      return assembler.outcome;
    }
    const chunk = scratchOf(CHUNK_BYTES).subarray(0, CHUNK_BYTES);
    if (stats.size > MAX_SEARCH_LINE_BYTES) {
      const probe = new LongLineProbe();
      for (let position = 0; ; ) {
        const read = readFully(descriptor, chunk, 0, chunk.length, position);
        if (read === 0 || !probe.push(chunk.subarray(0, read))) break;
        position += read;
      }
      if (probe.found) return 'long-line';
    }
    for (let position = 0; ; ) {
      // Early stop: the first chunk is the binary probe; the next ones grow (fewer reads when no line matches).
      const length = stopsEarly ? Math.min(chunk.length, Math.max(BINARY_PROBE_BYTES, position)) : chunk.length;
      const read = readFully(descriptor, chunk, 0, length, position);
      if (read === 0) break;
      position += read;
      if (!assembler.push(chunk.subarray(0, read))) return assembler.outcome;
    }
    assembler.end();
    return assembler.outcome;
  } catch {
    return 'unreadable';
  } finally {
    closeSync(descriptor);
  }
}
