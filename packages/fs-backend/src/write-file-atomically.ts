import { constants, type BigIntStats, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { lstat, open, rename, unlink } from './byte-exact-fs.js';
import { basename, dirname, join } from 'node:path';
import type { AtomicWriteOptions, AtomicWriteResult } from './async-file-system.js';
import { atomicTempFileName } from './atomic-temp-file-name.js';
import { openCheckedFolder, type CheckedFolder } from './checked-folder.js';
import { FileSystemError } from './file-system-error.js';
import { hashOpenFile } from './hash-open-file.js';
import { inFlightTempFiles } from './in-flight-temp-files.js';
import { isSameFile, isSameInode } from './is-same-file.js';
import { openRegularFile } from './open-regular-file.js';
import { removeLeftoverTempFiles } from './remove-leftover-temp-files.js';
import { StaleContentError } from './stale-content-error.js';
import { throwIfAborted } from './throw-if-aborted.js';
import { toFileSystemError } from './to-file-system-error.js';

const operation = 'write';
/** The temp file: created here and now, never through a link at its name (architecture §3.7). */
const tempFileFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** One write in progress: the target, where it is held, and what it writes. */
interface WriteJob {
  readonly path: string;
  readonly name: string;
  readonly folder: CheckedFolder;
  readonly bytes: Uint8Array;
  readonly options: AtomicWriteOptions;
  readonly chunkBytes: number;
}

function refuse(path: string, why: string, outcome = 'nothing was written'): FileSystemError {
  return new FileSystemError({
    code: 'invalid_path',
    path,
    message: `Cannot write ${path}: ${why}; ${outcome}. Resolve the path again (a canonical path, without symbolic links) and retry.`,
  });
}

/** Step 1: hold the checked folder (a missing one is named as such: create it first). */
async function holdFolder(path: string): Promise<CheckedFolder> {
  const directory = dirname(path);
  try {
    return await openCheckedFolder(directory, { operation, path });
  } catch (error) {
    if (!FileSystemError.isInstance(error) || error.errno !== 'ENOENT') throw error;
    throw new FileSystemError({
      code: 'not_found',
      path,
      errno: 'ENOENT',
      message: `Cannot write ${path}: its directory ${directory} does not exist; create it first (mkdirp), then write again.`,
      cause: error,
    });
  }
}

/** Step 2: what is at the target now (never following a link there); a directory is refused. */
async function existingTarget(job: WriteJob): Promise<Stats | null> {
  let existing: Stats;
  try {
    existing = await lstat(job.folder.pathOf(job.name));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw toFileSystemError(error, operation, job.path);
  }
  if (existing.isDirectory()) {
    throw new FileSystemError({ code: 'is_a_directory', path: job.path, errno: 'EISDIR', message: `Cannot write ${job.path}: it is a directory.` });
  }
  return existing;
}

/** Step 3: the content in a fresh temp file, owner and mode as the file it replaces, fsynced. */
async function writeTempFile(job: WriteJob, tempName: string, existing: Stats | null, onCreated: () => void): Promise<BigIntStats> {
  const handle = await open(job.folder.pathOf(tempName), tempFileFlags, job.options.mode ?? 0o666).catch((error: unknown) => {
    throw toFileSystemError(error, operation, job.path);
  });
  onCreated();
  try {
    const temp = await handle.stat();
    if (existing?.isFile() === true && (temp.uid !== existing.uid || temp.gid !== existing.gid)) {
      // Keep the owner when allowed (root); otherwise the new file is ours, like any editor's save.
      await handle.chown(existing.uid, existing.gid).catch(() => undefined);
    }
    // Exact bits, not masked by the umask (open's mode is); after chown, which may clear set-id bits.
    const preservedMode = job.options.mode ?? (existing?.isFile() === true ? existing.mode & 0o7777 : undefined);
    if (preservedMode !== undefined) await handle.chmod(preservedMode);
    await handle.writeFile(job.bytes);
    await handle.sync();
    return await handle.stat({ bigint: true });
  } finally {
    await handle.close();
  }
}

/** Step 4, compare-before-rename (§7.3): the target still has the expected content. O_NOFOLLOW: a link never matches. */
async function compareTarget(job: WriteJob): Promise<void> {
  const { expectedHash, signal } = job.options;
  if (expectedHash === undefined) return;
  let hash: string | null = null;
  let exists = true;
  let file;
  try {
    file = await openRegularFile(job.folder.pathOf(job.name), operation, true, job.path);
  } catch (error) {
    const code = FileSystemError.isInstance(error) ? error.code : undefined;
    if (code === 'not_found') exists = false;
    else if (code !== 'symlink_loop' && code !== 'is_a_directory' && code !== 'not_a_regular_file') throw error;
  }
  if (file !== undefined) {
    try {
      hash = await hashOpenFile(file.handle, job.chunkBytes, { signal, operation, path: job.path });
    } finally {
      await file.handle.close();
    }
  }
  const matches = expectedHash === null ? !exists : hash === expectedHash.toLowerCase();
  if (!matches) throw new StaleContentError(job.path, expectedHash === null ? null : expectedHash.toLowerCase(), hash);
}

/** Step 5, just before the rename: the path still leads to the held folder, and the temp file is still the one written. */
async function confirmBeforeRename(job: WriteJob, tempName: string, created: BigIntStats): Promise<void> {
  const moved = await job.folder.whyMoved();
  if (moved !== undefined) throw refuse(job.path, moved);
  if (!isSameFile(await lstat(job.folder.pathOf(tempName), { bigint: true }).catch(() => undefined), created)) {
    throw refuse(job.path, `the temporary file ${join(job.folder.path, tempName)} was replaced while the content was being written`);
  }
}

/**
 * Step 7, after the rename: the folder is still at its path. If it was moved away in the instant
 * before the rename, the content went with it: a file this write created is taken out again; a
 * replaced one cannot be put back, and the refusal says where the content is.
 */
async function confirmAfterRename(job: WriteJob, existing: Stats | null, created: BigIntStats): Promise<void> {
  const moved = await job.folder.whyMoved();
  if (moved === undefined) return;
  const target = job.folder.pathOf(job.name);
  if (existing === null && isSameInode(await lstat(target, { bigint: true }).catch(() => undefined), created)) {
    await unlink(target).catch(() => undefined);
    throw refuse(job.path, moved, 'the file it had just created there was removed again');
  }
  throw refuse(job.path, moved, `the content was written to ${job.name} in the folder that was at ${job.folder.path} when the write started`);
}

/** Steps 2–7 inside the held folder; the temp file is deleted on every failure, and only ours. */
async function writeInFolder(job: WriteJob, attemptStartedMs: number): Promise<Stats | null> {
  const existing = await existingTarget(job);
  await removeLeftoverTempFiles(job.folder, job.name, attemptStartedMs);
  const tempName = atomicTempFileName(job.name);
  const inFlightKey = join(job.folder.path, tempName);
  const inFlight = inFlightTempFiles();
  inFlight.add(inFlightKey);
  let tempCreated = false;
  let created: BigIntStats | undefined;
  try {
    created = await writeTempFile(job, tempName, existing, () => {
      tempCreated = true;
    });
    throwIfAborted(job.options.signal, operation, job.path);
    await compareTarget(job);
    throwIfAborted(job.options.signal, operation, job.path);
    await confirmBeforeRename(job, tempName, created);
    await rename(job.folder.pathOf(tempName), job.folder.pathOf(job.name));
    tempCreated = false;
    await confirmAfterRename(job, existing, created);
    return existing;
  } catch (error) {
    if (tempCreated) {
      const temp = job.folder.pathOf(tempName);
      // Only our own temp file: another file may have been put at its name meanwhile.
      const ours = created === undefined || isSameFile(await lstat(temp, { bigint: true }).catch(() => undefined), created);
      if (ours) await unlink(temp).catch(() => undefined);
    }
    throw toFileSystemError(error, operation, job.path);
  } finally {
    inFlight.delete(inFlightKey);
  }
}

function validate(path: string, options: AtomicWriteOptions): string {
  const { expectedHash, mode } = options;
  if (mode !== undefined && (!Number.isInteger(mode) || mode < 0 || mode > 0o7777)) {
    throw new FileSystemError({ code: 'invalid_argument', path, message: `atomicWrite: mode must be permission bits (0 to 0o7777), got ${String(mode)}.` });
  }
  if (expectedHash !== undefined && expectedHash !== null && !/^[0-9a-fA-F]{64}$/.test(expectedHash)) {
    throw new FileSystemError({ code: 'invalid_argument', path, message: `atomicWrite: expectedHash must be a SHA-256 hex string or null, got ${JSON.stringify(expectedHash)}.` });
  }
  const name = basename(path);
  if (path.endsWith('/') || name === '' || name === '.' || name === '..') {
    throw new FileSystemError({ code: 'invalid_path', path, message: `Cannot write ${path}: the path does not name a file.` });
  }
  return name;
}

/**
 * §6.2, §7.2, §7.3: write a temp file in the target's (already checked) folder, fsync it, compare
 * the target's current content with the expected hash, then `rename` within the folder, so readers
 * see the old or the new content and never a mix, even if this process is killed. The folder is
 * held from the start (architecture §3.7 "Races", `CheckedFolder`): every step names the entries of
 * that very folder, so a folder on the way swapped for a link cannot take the content elsewhere.
 * The rename replaces a symlink at the target rather than writing through it. The temp file is
 * deleted on every failure; temp files of crashed writers for the same target are removed first.
 * The lock that makes read-check-write atomic among writers is the caller's (`WriteLocks`).
 */
export async function writeFileAtomically(path: string, content: string | Uint8Array, options: AtomicWriteOptions, chunkBytes: number): Promise<AtomicWriteResult> {
  const name = validate(path, options);
  throwIfAborted(options.signal, operation, path);
  const attemptStartedMs = Date.now();
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const folder = await holdFolder(path);
  try {
    const existing = await writeInFolder({ path, name, folder, bytes, options, chunkBytes }, attemptStartedMs);
    await folder.sync();
    return { sha256, created: existing === null, byteLength: bytes.length };
  } finally {
    await folder.close();
  }
}
