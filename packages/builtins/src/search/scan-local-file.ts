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

/**
 * Whether the open file is the one the walk checked: the walk found `path` as a plain file of a
 * directory it had checked, but a link put in its place (or in place of a folder above it) before
 * the open would lead elsewhere, maybe to a credential file. On Linux the kernel says what was
 * opened; elsewhere O_NOFOLLOW guards the last component only.
 */
function isTheCheckedFile(descriptor: number, nodePath: string | Buffer): boolean {
  if (!hasProcFileDescriptors) return true;
  try {
    // A path with bytes that are not UTF-8 (issue 25) is compared as bytes.
    if (typeof nodePath === 'string') return readlinkSync(`/proc/self/fd/${descriptor}`) === nodePath;
    return readlinkSync(`/proc/self/fd/${descriptor}`, 'buffer').equals(nodePath);
  } catch {
    return true;
  }
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
 * once `scan` has said it wants no more.
 */
export function scanLocalFile(path: string, scan: (region: Buffer, last: boolean) => boolean, stopsEarly = false): FileOutcome {
  const nodePath = toNodePath(path);
  let descriptor: number;
  try {
    descriptor = openSync(nodePath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return 'unreadable';
  }
  try {
    const stats = fstatSync(descriptor);
    if (!stats.isFile() || !isTheCheckedFile(descriptor, nodePath)) return 'unreadable';
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
