import { constants, type BigIntStats, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { AtomicWriteOptions, AtomicWriteResult } from './async-file-system.js';
import { atomicTempFileName } from './atomic-temp-file-name.js';
import { confirmCheckedFolder, isSameFile } from './confirm-checked-folder.js';
import { FileSystemError } from './file-system-error.js';
import { hashOpenFile } from './hash-open-file.js';
import { inFlightTempFiles } from './in-flight-temp-files.js';
import { openRegularFile } from './open-regular-file.js';
import { removeLeftoverTempFiles } from './remove-leftover-temp-files.js';
import { StaleContentError } from './stale-content-error.js';
import { throwIfAborted } from './throw-if-aborted.js';
import { toFileSystemError } from './to-file-system-error.js';

const operation = 'write';

/** What is at the target right now, for compare-before-rename. `hash` is null for anything but a regular file. */
async function currentContent(
  path: string,
  chunkBytes: number,
  signal: AbortSignal | undefined,
): Promise<{ readonly exists: boolean; readonly hash: string | null }> {
  let file;
  try {
    // O_NOFOLLOW: a file swapped for a symlink after the check never matches (peers.md "Paths").
    file = await openRegularFile(path, operation, true);
  } catch (error) {
    if (FileSystemError.isInstance(error)) {
      if (error.code === 'not_found') return { exists: false, hash: null };
      if (error.code === 'symlink_loop' || error.code === 'is_a_directory' || error.code === 'not_a_regular_file') {
        return { exists: true, hash: null };
      }
    }
    throw error;
  }
  try {
    return { exists: true, hash: await hashOpenFile(file.handle, chunkBytes, { signal, operation, path }) };
  } finally {
    await file.handle.close();
  }
}

/** fsync the directory so the rename itself survives a power loss; not every platform allows it. */
async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY);
    await handle.sync();
  } catch {
    // EINVAL/EISDIR/EPERM on platforms or file systems without directory fsync.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * ENOENT from creating the temp file can only mean the directory is missing: say so, instead of
 * the generic "it does not exist", which reads as nonsense for a file that is being created.
 */
function missingDirectoryOr(error: unknown, path: string, directory: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'ENOENT') return error;
  return new FileSystemError({
    code: 'not_found',
    path,
    errno: 'ENOENT',
    message: `Cannot write ${path}: its directory ${directory} does not exist; create it first (mkdirp), then write again.`,
    cause: error,
  });
}

/**
 * §6.2, §7.2, §7.3: write a temp file in the target's (already checked) directory with `wx`,
 * fsync it, compare the target's current content with the expected hash, then `rename` within the
 * directory, so readers see the old or the new content and never a mix, even if this process is
 * killed. The rename replaces a symlink at the target rather than writing through it. The temp
 * file is deleted on every failure; temp files of crashed writers for the same target are
 * removed first. The lock that makes read-check-write atomic among writers is the caller's
 * (`WriteLocks`); the compare only narrows the window against outside writers to the rename.
 */
export async function writeFileAtomically(
  path: string,
  content: string | Uint8Array,
  options: AtomicWriteOptions,
  chunkBytes: number,
): Promise<AtomicWriteResult> {
  const { expectedHash, mode, signal } = options;
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
  throwIfAborted(signal, operation, path);
  const attemptStartedMs = Date.now();
  const directory = dirname(path);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  let existing: Stats | null;
  try {
    existing = await lstat(path);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw toFileSystemError(error, operation, path);
    existing = null;
  }
  if (existing?.isDirectory() === true) {
    throw new FileSystemError({ code: 'is_a_directory', path, errno: 'EISDIR', message: `Cannot write ${path}: it is a directory.` });
  }

  await confirmCheckedFolder(path, directory);
  await removeLeftoverTempFiles(directory, name, attemptStartedMs);

  const tempPath = join(directory, atomicTempFileName(name));
  const inFlight = inFlightTempFiles();
  inFlight.add(tempPath);
  let tempCreated = false;
  let created: BigIntStats | undefined;
  try {
    const handle = await open(tempPath, 'wx', mode ?? 0o666).catch((error: unknown) => {
      throw missingDirectoryOr(error, path, directory);
    });
    tempCreated = true;
    try {
      const temp = await handle.stat();
      if (existing?.isFile() === true) {
        if (temp.uid !== existing.uid || temp.gid !== existing.gid) {
          // Keep the owner when allowed (root); otherwise the new file is ours, like any editor's save.
          await handle.chown(existing.uid, existing.gid).catch(() => undefined);
        }
      }
      // Exact bits, not masked by the umask (open's mode is); after chown, which may clear set-id bits.
      const preservedMode = mode ?? (existing?.isFile() === true ? existing.mode & 0o7777 : undefined);
      if (preservedMode !== undefined) await handle.chmod(preservedMode);
      await handle.writeFile(bytes);
      await handle.sync();
      created = await handle.stat({ bigint: true });
    } finally {
      await handle.close();
    }
    throwIfAborted(signal, operation, path);
    if (expectedHash !== undefined) {
      const current = await currentContent(path, chunkBytes, signal);
      const matches = expectedHash === null ? !current.exists : current.hash === expectedHash.toLowerCase();
      if (!matches) throw new StaleContentError(path, expectedHash === null ? null : expectedHash.toLowerCase(), current.hash);
    }
    throwIfAborted(signal, operation, path);
    // Check and use are apart (§6.2): just before the rename, the folder must still be the checked
    // one and the temp file still ours, so a swapped folder cannot take the content elsewhere.
    await confirmCheckedFolder(path, directory, created === undefined ? undefined : { path: tempPath, created });
    await rename(tempPath, path);
    tempCreated = false;
  } catch (error) {
    // Only our own temp file: after a swapped folder, the name may now be someone else's file.
    if (tempCreated) {
      const ours = created === undefined || isSameFile(await lstat(tempPath, { bigint: true }).catch(() => undefined), created);
      if (ours) await unlink(tempPath).catch(() => undefined);
    }
    throw toFileSystemError(error, operation, path);
  } finally {
    inFlight.delete(tempPath);
  }
  await syncDirectory(directory);
  return { sha256, created: existing === null, byteLength: bytes.length };
}
