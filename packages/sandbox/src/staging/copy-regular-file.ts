import * as fs from 'node:fs';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;
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
 * Returns the number of bytes copied. Throws when it is no regular file (any more); a target it
 * created is removed again when the copy fails (a full disk, a read error).
 */
export function copyRegularFile(source: fs.PathLike, target: fs.PathLike, mode = 0o600): number {
  const input = fs.openSync(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    if (!fs.fstatSync(input).isFile()) throw Object.assign(new Error('it is no longer a regular file'), { code: 'ENOTREGULAR' });
    const output = fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
    let done = false;
    try {
      const buffer = shared;
      let offset = 0;
      for (;;) {
        const read = fs.readSync(input, buffer, 0, buffer.length, null);
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

const zeros = Buffer.alloc(CHUNK);
/** One buffer for every copy (the routine is synchronous): a fresh MiB per file made a pass of thousands of small files mostly garbage collection. */
const shared = Buffer.allocUnsafe(CHUNK);

function isZeros(buffer: Buffer, length: number): boolean {
  return buffer.compare(zeros, 0, length, 0, length) === 0;
}
