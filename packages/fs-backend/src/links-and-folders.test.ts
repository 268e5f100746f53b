import { lstat, mkdir, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemError, NodeFileSystem } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

// The optional operations undo and reapply of a sandboxed command's changes use (links and
// folders): each on an entry of a folder held without following links, never replacing anything.

const fileSystem = new NodeFileSystem();
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (FileSystemError.isInstance(error) ? error.code : `foreign: ${String(error)}`),
  );

describe('NodeFileSystem links and folders', () => {
  it('symlink creates a link (dangling is fine) and never replaces an entry; readlink reads it without following', async () => {
    const link = join(directory.path, 'link');
    await fileSystem.symlink('missing/target', link);
    expect(await readlink(link)).toBe('missing/target');
    expect(await fileSystem.readlink(link)).toBe('missing/target');
    expect(await codeOf(fileSystem.symlink('other', link))).toBe('already_exists');
    expect(await readlink(link)).toBe('missing/target');
    await writeFile(join(directory.path, 'file'), 'x');
    expect(await codeOf(fileSystem.readlink(join(directory.path, 'file')))).toBe('invalid_argument');
  });

  it('mkdir makes one folder with exactly the bits asked (not masked), only where nothing is; rmdir removes an empty folder only', async () => {
    const folder = join(directory.path, 'made');
    await fileSystem.mkdir(folder, 0o777);
    expect((await lstat(folder)).mode & 0o7777).toBe(0o777);
    expect(await codeOf(fileSystem.mkdir(folder, 0o755))).toBe('already_exists');
    expect(await codeOf(fileSystem.mkdir(join(directory.path, 'no', 'parent'), 0o755))).toBe('not_found');
    await writeFile(join(folder, 'inside'), 'x');
    expect(await codeOf(fileSystem.rmdir(folder))).toBe('not_empty');
    await mkdir(join(directory.path, 'empty'));
    await fileSystem.rmdir(join(directory.path, 'empty'));
    await expect(lstat(join(directory.path, 'empty'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rmdir of a link to a folder removes nothing', async () => {
    await mkdir(join(directory.path, 'real'));
    await symlink('real', join(directory.path, 'alias'));
    expect(await codeOf(fileSystem.rmdir(join(directory.path, 'alias')))).toBe('not_a_directory');
    expect((await lstat(join(directory.path, 'real'))).isDirectory()).toBe(true);
    expect((await lstat(join(directory.path, 'alias'))).isSymbolicLink()).toBe(true);
  });
});
