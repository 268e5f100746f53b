import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, open, readdir, readFile, readlink, stat, symlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileSystemError, NodeFileSystem, StaleContentError } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
const fileSystem = new NodeFileSystem();
const onLinux = process.platform === 'linux';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
let directory: { path: string; remove(): Promise<void> };

beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await directory.remove();
});

const tempNamePattern = /^\..*\.\d+\.[0-9a-f]{12}\.tmp$/;

/** Names in `dir` that look like our temp files (`.<name>.<pid>.<12 hex>.tmp`). */
async function tempFilesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => tempNamePattern.test(name));
}

async function failureOf(promise: Promise<unknown>): Promise<FileSystemError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!FileSystemError.isInstance(error)) throw new Error(`expected a FileSystemError, got ${String(error)}`);
  return error;
}

/**
 * An AbortSignal that is never aborted but runs `sideEffect` the `at`-th time it is asked: the
 * first question comes at the start, the second right after the temp file was written and synced,
 * before the target is compared. A way to let "someone else" act at that moment.
 */
function actAtCheck(at: number, sideEffect: () => void): AbortSignal {
  let checks = 0;
  return {
    get aborted() {
      checks += 1;
      if (checks === at) sideEffect();
      return false;
    },
    reason: undefined,
  } as unknown as AbortSignal;
}

describe('atomicWrite: expectedHash null means "nothing may be at the target" (§7.2)', () => {
  it('an existing symbolic link, dangling or not, is something: refused, the link left as it was', async () => {
    const outsideFile = join(directory.path, 'outside.txt');
    await writeFile(outsideFile, 'outside');
    for (const [name, linkTarget] of [
      ['link-to-file', outsideFile],
      ['dangling-link', join(directory.path, 'nowhere.txt')],
    ] as const) {
      const target = join(directory.path, name);
      await symlink(linkTarget, target);
      const error = await failureOf(fileSystem.atomicWrite(target, 'mine', { expectedHash: null }));
      expect(StaleContentError.isInstance(error), name).toBe(true);
      expect((error as StaleContentError).actualHash).toBeNull();
      expect(error.message).toBe(`file changed while edit was being prepared: ${target} was not overwritten because something now exists there. Read it again and retry.`);
      expect(await readlink(target)).toBe(linkTarget);
    }
    expect(await readFile(outsideFile, 'utf8')).toBe('outside');
    await expect(stat(join(directory.path, 'nowhere.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it.skipIf(!onLinux)('an existing FIFO is something: refused without blocking, the FIFO left as it was', async () => {
    const target = join(directory.path, 'pipe');
    execFileSync('mkfifo', [target]);
    const error = await failureOf(fileSystem.atomicWrite(target, 'mine', { expectedHash: null }));
    expect(StaleContentError.isInstance(error)).toBe(true);
    expect((error as StaleContentError).actualHash).toBeNull();
    expect((await lstat(target)).isFIFO()).toBe(true);
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('a folder that appears at the target while the temp file is written is something: refused as stale', async () => {
    const target = join(directory.path, 'racy');
    const signal = actAtCheck(2, () => execFileSync('mkdir', [target]));
    const error = await failureOf(fileSystem.atomicWrite(target, 'mine', { expectedHash: null, signal }));
    expect(error.code).toBe('stale_content');
    expect((error as StaleContentError).actualHash).toBeNull();
    expect((await lstat(target)).isDirectory()).toBe(true);
    expect(await readdir(target)).toEqual([]);
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('a file that appears while the temp file is written is refused with its hash; nothing else is there', async () => {
    const target = join(directory.path, 'racy.txt');
    const signal = actAtCheck(2, () => execFileSync('sh', ['-c', 'printf theirs > "$1"', 'sh', target]));
    const error = await failureOf(fileSystem.atomicWrite(target, 'mine', { expectedHash: null, signal }));
    expect(StaleContentError.isInstance(error)).toBe(true);
    expect((error as StaleContentError).actualHash).toBe(sha256('theirs'));
    expect(await readFile(target, 'utf8')).toBe('theirs');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('a folder at the target is "is a directory" before anything is compared, whatever hash was expected', async () => {
    const target = join(directory.path, 'folder');
    await mkdir(target);
    for (const expectedHash of [null, sha256('anything'), undefined]) {
      const error = await failureOf(fileSystem.atomicWrite(target, 'x', expectedHash === undefined ? {} : { expectedHash }));
      expect(error.code, String(expectedHash)).toBe('is_a_directory');
      expect(error.errno).toBe('EISDIR');
      expect(error.message).toBe(`Cannot write ${target}: it is a directory.`);
    }
    expect(await readdir(target)).toEqual([]);
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });
});

describe('atomicWrite: bad arguments are refused before anything is written', () => {
  it('a mode that is not permission bits', async () => {
    const target = join(directory.path, 'a.txt');
    for (const mode of [-1, 0o10000, 1.5, Number.NaN]) {
      const error = await failureOf(fileSystem.atomicWrite(target, 'x', { mode }));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toBe(`atomicWrite: mode must be permission bits (0 to 0o7777), got ${String(mode)}.`);
    }
    await expect(lstat(target)).rejects.toMatchObject({ code: 'ENOENT' });
    // The bounds themselves are permission bits.
    await fileSystem.atomicWrite(target, 'x', { mode: 0o7777 });
    expect((await stat(target)).mode & 0o7777).toBe(0o7777);
    await fileSystem.atomicWrite(target, 'y', { mode: 0 });
    expect((await stat(target)).mode & 0o7777).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('y');
  });

  it('an expected hash that is not 64 hex digits', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'before');
    const good = sha256('before');
    for (const expectedHash of ['', good.slice(1), `${good}0`, `${good.slice(1)}g`, ` ${good.slice(1)}`, `${good}\n`]) {
      const error = await failureOf(fileSystem.atomicWrite(target, 'after', { expectedHash }));
      expect(error.code, JSON.stringify(expectedHash)).toBe('invalid_argument');
      expect(error.message).toBe(`atomicWrite: expectedHash must be a SHA-256 hex string or null, got ${JSON.stringify(expectedHash)}.`);
    }
    expect(await readFile(target, 'utf8')).toBe('before');
    await fileSystem.atomicWrite(target, 'after', { expectedHash: good.toUpperCase() });
    expect(await readFile(target, 'utf8')).toBe('after');
  });

  it('a path that names a directory (x/, x/., x/.., /) writes nothing, not even a file x', async () => {
    const inside = join(directory.path, 'x');
    for (const path of [`${inside}/`, `${inside}//`, `${inside}/.`, `${inside}/..`, '/']) {
      const error = await failureOf(fileSystem.atomicWrite(path, 'content'));
      expect(error.code, path).toBe('invalid_path');
      expect(error.message).toBe(`Cannot write ${path}: the path does not name a file.`);
    }
    expect(await readdir(directory.path)).toEqual([]);
  });

  it('a call cancelled before it starts writes nothing', async () => {
    const target = join(directory.path, 'a.txt');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const error = await failureOf(fileSystem.atomicWrite(target, 'x', { signal: controller.signal }));
    expect(error.code).toBe('cancelled');
    expect(await readdir(directory.path)).toEqual([]);
  });
});

describe('atomicWrite: what it reports and what it leaves behind', () => {
  it('byteLength counts UTF-8 bytes, not characters', async () => {
    const target = join(directory.path, 'unicode.txt');
    const text = 'é€😀'; // 2 + 3 + 4 bytes
    const result = await fileSystem.atomicWrite(target, text);
    expect(result).toStrictEqual({ sha256: sha256(Buffer.from(text, 'utf8')), created: true, byteLength: 9 });
    expect(await readFile(target)).toEqual(Buffer.from(text, 'utf8'));
    const bytes = new Uint8Array([0xff, 0x00, 0xfe]);
    expect(await fileSystem.atomicWrite(target, bytes)).toStrictEqual({ sha256: sha256(bytes), created: false, byteLength: 3 });
  });

  it.skipIf(!onLinux)('leaves no file descriptor open, whichever way a write ends', async () => {
    const openDescriptors = () => readdirSync('/proc/self/fd').length;
    const target = join(directory.path, 'a.txt');
    await fileSystem.atomicWrite(target, 'warm-up'); // lazily opened things of node itself
    const before = openDescriptors();
    for (let round = 0; round < 20; round += 1) {
      const current = await readFile(target);
      await fileSystem.atomicWrite(target, `round ${round}`, { expectedHash: sha256(current) });
      await failureOf(fileSystem.atomicWrite(target, 'stale', { expectedHash: sha256('not what is there') }));
      await failureOf(fileSystem.atomicWrite(join(directory.path, `new-${round}.txt`), 'x', { expectedHash: sha256('x') }));
    }
    expect(openDescriptors() - before).toBeLessThanOrEqual(1);
  });

  it.skipIf(!onLinux)('syncs the temp file before the rename and the directory after it', async () => {
    const target = join(directory.path, 'durable.txt');
    await writeFile(target, 'old');
    const probe = await open(target, 'r');
    const fileHandlePrototype = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const realSync = fileHandlePrototype.sync;
    /** Each sync: what the handle is, what it holds, and what the target holds at that moment. */
    const syncs: { path: string; holds: string | null; target: string }[] = [];
    vi.spyOn(fileHandlePrototype, 'sync').mockImplementation(function (this: FileHandle) {
      const path = readlinkSync(`/proc/self/fd/${this.fd}`);
      const isDirectory = path === directory.path;
      syncs.push({ path, holds: isDirectory ? null : readFileSync(`/proc/self/fd/${this.fd}`, 'utf8'), target: readFileSync(target, 'utf8') });
      return realSync.call(this);
    });

    await fileSystem.atomicWrite(target, 'new', { expectedHash: sha256('old') });

    expect(syncs).toHaveLength(2);
    const [temp, folder] = syncs;
    expect(tempNamePattern.test(basename(temp?.path ?? ''))).toBe(true);
    expect(temp).toMatchObject({ holds: 'new', target: 'old' });
    expect(folder).toStrictEqual({ path: directory.path, holds: null, target: 'new' });
  });

  it.skipIf(!isRoot)('keeps the owner and the set-id bits of the file it replaces (as root)', async () => {
    const target = join(directory.path, 'owned');
    await writeFile(target, 'before');
    await chown(target, 4321, 4322);
    await chmod(target, 0o4755);
    await fileSystem.atomicWrite(target, 'after');
    const after = await stat(target);
    expect({ uid: after.uid, gid: after.gid, mode: after.mode & 0o7777 }).toStrictEqual({ uid: 4321, gid: 4322, mode: 0o4755 });
    expect(await readFile(target, 'utf8')).toBe('after');
    // Only the group differs: it is kept too.
    await chown(target, process.getuid?.() ?? 0, 4323);
    await fileSystem.atomicWrite(target, 'again');
    expect((await stat(target)).gid).toBe(4323);
  });

  it('replacing a symbolic link does not take the mode of what it points to', async () => {
    const outsideFile = join(directory.path, 'script.sh');
    await writeFile(outsideFile, '#!/bin/sh\n');
    await chmod(outsideFile, 0o700);
    const reference = join(directory.path, 'reference');
    await writeFile(reference, 'x');
    const link = join(directory.path, 'link');
    await symlink(outsideFile, link);
    const result = await fileSystem.atomicWrite(link, 'plain');
    expect(result.created).toBe(false);
    expect((await stat(link)).mode & 0o7777).toBe((await stat(reference)).mode & 0o7777);
    expect((await stat(outsideFile)).mode & 0o7777).toBe(0o700);
  });
});
