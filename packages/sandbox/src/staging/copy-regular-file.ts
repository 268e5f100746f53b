import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

const { O_CREAT, O_DIRECTORY, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;
const CHUNK = 1024 * 1024;

/**
 * Copies the regular file at `source` to `target` (created, never replaced), the one copy routine
 * of staged writes (the apply, `sync()`'s copy out of a running command's reach, `reflect()`):
 * - a link at `source` is not followed: what is copied is the file that was opened, even if a
 *   running command swaps the name for a link to a host file meanwhile;
 * - it reads until the end the file has now (not `copyFileSync`, whose loop waits forever for bytes
 *   a file truncated meanwhile no longer has);
 * - a chunk of zeros is not written but skipped over, and the length set at the end: a hole stays a
 *   hole (and a run of zeros becomes one: the bytes read back are the same).
 * `from`: the bytes from this offset on (the new tail of a file that grew). Returns the number of
 * bytes copied. Throws when it is no regular file (any more); a target it
 * created is removed again when the copy fails (a full disk, a read error).
 */
export function copyRegularFile(source: fs.PathLike, target: fs.PathLike, mode = 0o600, from = 0): number {
  const input = fs.openSync(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const stats = fs.fstatSync(input);
    if (!stats.isFile()) throw Object.assign(new Error('it is no longer a regular file'), { code: 'ENOTREGULAR' });
    const output = fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    let done = false;
    try {
      // A sparse file (most of it holes): copied by `cp`, which finds the data with SEEK_DATA and
      // SEEK_HOLE (Node has neither), from the very descriptor opened here — a file of 1 TiB with a
      // few bytes takes milliseconds, not the time to read a TiB of zeros.
      if (from === 0 && isSparse(stats)) {
        const copied = copySparse(input, output);
        if (copied !== undefined) {
          done = true;
          return copied;
        }
      }
      const buffer = shared;
      let offset = 0;
      for (;;) {
        const read = fs.readSync(input, buffer, 0, buffer.length, from + offset);
        if (read === 0) break;
        if (!isZeros(buffer, read)) {
          for (let written = 0; written < read; ) written += fs.writeSync(output, buffer, written, read - written, offset + written);
        }
        offset += read;
      }
      fs.ftruncateSync(output, offset);
      done = true;
      return offset;
    } finally {
      fs.closeSync(output);
      if (!done) fs.rmSync(target, { force: true });
    }
  } finally {
    fs.closeSync(input);
  }
}

/** At least 64 MiB long and less than half of it stored: worth finding its data instead of reading its holes. */
function isSparse(stats: fs.Stats): boolean {
  return stats.size >= 64 * CHUNK && stats.blocks * 512 < stats.size / 2;
}

/** Where `cp` is (GNU coreutils 9 copies holes as holes with SEEK_DATA/SEEK_HOLE); undefined without one. */
const cpProgram = ['/usr/bin/cp', '/bin/cp'].find((candidate) => {
  try {
    fs.accessSync(candidate, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

/**
 * Copies the file open at `input` into the (empty) file open at `output` with `cp --sparse=always`,
 * both handed to it as descriptors (its `/dev/fd/3` and `/dev/fd/4` reopen these very files, never a
 * name a running command could swap). The bytes copied, or undefined when `cp` is missing or failed
 * (the caller then reads the file itself).
 */
function copySparse(input: number, output: number): number | undefined {
  if (cpProgram === undefined) return undefined;
  const run = spawnSync(cpProgram, ['--sparse=always', '--', '/dev/fd/3', '/dev/fd/4'], { stdio: ['ignore', 'ignore', 'pipe', input, output], timeout: 600_000 });
  if (run.status !== 0) {
    fs.ftruncateSync(output, 0);
    return undefined;
  }
  return fs.fstatSync(output).size;
}

const zeros = Buffer.alloc(CHUNK);
/** One buffer for every copy (the routine is synchronous): a fresh MiB per file made a pass of thousands of small files mostly garbage collection. */
const shared = Buffer.allocUnsafe(CHUNK);

function isZeros(buffer: Buffer, length: number): boolean {
  return buffer.compare(zeros, 0, length, 0, length) === 0;
}

/** Appends the whole file at `source` to the file open at `output` (its current end): the bytes appended. */
export function appendRegularFile(source: fs.PathLike, output: number): number {
  const input = fs.openSync(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    let total = 0;
    for (;;) {
      const read = fs.readSync(input, shared, 0, shared.length, total);
      if (read === 0) return total;
      for (let written = 0; written < read; ) written += fs.writeSync(output, shared, written, read - written);
      total += read;
    }
  } finally {
    fs.closeSync(input);
  }
}

/** Whether the stats are of a sparse file (copied by `cp`, never by tails). */
export function isSparseFile(stats: fs.Stats): boolean {
  return isSparse(stats);
}

/**
 * Copies the folder at `source` to `target` (created, mode 0700), entry by entry without following a
 * link at any level: files through `copyRegularFile`, links as links, folders in turn. An entry a
 * running command changes meanwhile (a folder swapped for a link, a name gone) is left out; other
 * kinds (sockets, FIFOs, devices) too. Not Node's `cpSync`: its native walk ends the whole process
 * (an uncaught C++ exception, SIGABRT) when a folder it is reading becomes something else.
 */
export function copyFolder(source: fs.PathLike, target: fs.PathLike): void {
  const folder = fs.openSync(source, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  try {
    fs.mkdirSync(target, { mode: 0o700 });
    const here = Buffer.from(`/proc/self/fd/${folder}/`);
    const there = Buffer.concat([typeof target === 'string' ? Buffer.from(target) : Buffer.from(target as Buffer), Buffer.from('/')]);
    for (const name of fs.readdirSync(`/proc/self/fd/${folder}`, { encoding: 'buffer' })) {
      const from = Buffer.concat([here, name]);
      const to = Buffer.concat([there, name]);
      try {
        const stats = fs.lstatSync(from);
        if (stats.isFile()) copyRegularFile(from, to, stats.mode & 0o777);
        else if (stats.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from, { encoding: 'buffer' }), to);
        else if (stats.isDirectory()) copyFolder(from, to);
      } catch {
        // changed by the running command while it was read: left out
      }
    }
  } finally {
    fs.closeSync(folder);
  }
}
