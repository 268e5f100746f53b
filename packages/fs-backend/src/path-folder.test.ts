import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forceDescriptorPaths } from './descriptor-paths.js';
import { FileSystemError, NodeFileSystem } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

// The path fallback (macOS has no /proc/self/fd), run here by switching descriptor paths off: the
// same results for ordinary calls, and a folder that is not canonical is still refused up front.
const fileSystem = new NodeFileSystem();
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
  forceDescriptorPaths(false);
});
afterEach(async () => {
  forceDescriptorPaths(undefined);
  await directory.remove();
});

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: unknown) => (FileSystemError.isInstance(error) ? error.code : String(error)),
  );

describe('the path fallback of CheckedFolder (no descriptor paths)', () => {
  it('writes, makes folders and deletes like the descriptor version', async () => {
    const deep = join(directory.path, 'a', 'b');
    await fileSystem.mkdirp(deep);
    const target = join(deep, 'f.txt');
    expect((await fileSystem.atomicWrite(target, 'one', { expectedHash: null })).created).toBe(true);
    expect((await fileSystem.atomicWrite(target, 'two')).created).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('two');
    await fileSystem.unlink(target);
    expect(await readdir(deep)).toEqual([]);
  });

  it('refuses a folder on the way that is a symbolic link, and names a missing folder', async () => {
    await mkdir(join(directory.path, 'real', 'sub'), { recursive: true });
    await symlink(join(directory.path, 'real'), join(directory.path, 'alias'));
    expect(await codeOf(fileSystem.atomicWrite(join(directory.path, 'alias', 'a.txt'), 'x'))).toBe('invalid_path');
    expect(await codeOf(fileSystem.atomicWrite(join(directory.path, 'alias', 'sub', 'a.txt'), 'x'))).toBe('invalid_path');
    expect(await readdir(join(directory.path, 'real'))).toEqual(['sub']);
    expect(await readdir(join(directory.path, 'real', 'sub'))).toEqual([]);
    const missing = await fileSystem.atomicWrite(join(directory.path, 'missing', 'a.txt'), 'x').catch((error: unknown) => error as FileSystemError);
    expect(missing).toMatchObject({ code: 'not_found', message: `Cannot write ${join(directory.path, 'missing', 'a.txt')}: its directory ${join(directory.path, 'missing')} does not exist; create it first (mkdirp), then write again.` });
    await writeFile(join(directory.path, 'file'), 'x');
    expect(await codeOf(fileSystem.atomicWrite(join(directory.path, 'file', 'a.txt'), 'x'))).toBe('not_a_directory');
  });
});
