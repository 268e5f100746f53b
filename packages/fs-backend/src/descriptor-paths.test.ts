import { constants, type BigIntStats } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile, readlink, rename, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDescriptor, descriptorPath, descriptorPathsAvailable, O_PATH, openDescriptor, statDescriptor } from './descriptor-paths.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

// The design of architecture §3.7 "Races" rests on these kernel behaviours; each is checked here
// on the running kernel rather than assumed. Linux only: macOS has no /proc/self/fd and runs the
// path fallback (README "Known limits").
const onLinux = process.platform === 'linux';
const noFollowFolder = O_PATH | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const createOnly = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

let directory: { path: string; remove(): Promise<void> };
let held: number | undefined;
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  if (held !== undefined) closeDescriptor(held);
  held = undefined;
  await directory.remove();
});

const errnoOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'no error',
    (error: unknown) => (error as { code?: string }).code,
  );
const sameInode = (a: BigIntStats, b: BigIntStats) => a.dev === b.dev && a.ino === b.ino;

/** `workspace/sub` held by a descriptor, then moved to `moved` and replaced by a link to `home`. */
async function holdThenSwap(): Promise<{ sub: string; moved: string; home: string; fd: number }> {
  const sub = join(directory.path, 'workspace', 'sub');
  const moved = join(directory.path, 'workspace', 'moved');
  const home = join(directory.path, 'home');
  await mkdir(sub, { recursive: true });
  await mkdir(home);
  const fd = await openDescriptor(sub, noFollowFolder);
  held = fd;
  await rename(sub, moved);
  await symlink(home, sub);
  return { sub, moved, home, fd };
}

describe.skipIf(!onLinux)('descriptor paths on this kernel (§3.7 Races)', () => {
  it('are available here: /proc/self/fd/<fd> of an opened folder is that folder', async () => {
    expect(await descriptorPathsAvailable()).toBe(true);
  });

  it('O_DIRECTORY | O_NOFOLLOW refuses a link to a folder (ENOTDIR) and a file, and opens a real folder', async () => {
    await mkdir(join(directory.path, 'real'));
    await symlink(join(directory.path, 'real'), join(directory.path, 'link'));
    await writeFile(join(directory.path, 'file'), 'x');
    expect(await errnoOf(openDescriptor(join(directory.path, 'link'), noFollowFolder))).toBe('ENOTDIR');
    expect(await errnoOf(openDescriptor(join(directory.path, 'file'), noFollowFolder))).toBe('ENOTDIR');
    held = await openDescriptor(join(directory.path, 'real'), noFollowFolder);
    expect(sameInode(await statDescriptor(held, { bigint: true }), await stat(join(directory.path, 'real'), { bigint: true }))).toBe(true);
  });

  it('a lookup through /proc/self/fd/<fd> starts at the held folder, not at the path, after the folder was swapped for a link', async () => {
    const { moved, home, fd } = await holdThenSwap();
    // Create only, write, rename within the folder, make a folder, list, unlink: all in `moved`.
    const temp = await open(descriptorPath(fd, '.t.tmp'), createOnly, 0o644);
    await temp.writeFile('content');
    await temp.close();
    await rename(descriptorPath(fd, '.t.tmp'), descriptorPath(fd, 'final'));
    await mkdir(descriptorPath(fd, 'made'));
    expect((await readdir(descriptorPath(fd))).sort()).toEqual(['final', 'made']);
    expect(await readFile(join(moved, 'final'), 'utf8')).toBe('content');
    expect(await readdir(home)).toEqual([]);
    await unlink(descriptorPath(fd, 'final'));
    expect(await readdir(moved)).toEqual(['made']);
  });

  it('O_CREAT | O_EXCL | O_NOFOLLOW and mkdir refuse a name that is a link (EEXIST), dangling or not, and create nothing at its target', async () => {
    const { moved, home, fd } = await holdThenSwap();
    await writeFile(join(home, 'existing'), 'home file');
    await symlink(join(home, 'existing'), join(moved, 'to-file'));
    await symlink(join(home, 'missing'), join(moved, 'dangling'));
    for (const name of ['to-file', 'dangling']) {
      expect(await errnoOf(open(descriptorPath(fd, name), createOnly, 0o644)), name).toBe('EEXIST');
      expect(await errnoOf(mkdir(descriptorPath(fd, name))), name).toBe('EEXIST');
    }
    // Reading with O_NOFOLLOW refuses the link itself (ELOOP) instead of reading its target.
    expect(await errnoOf(open(descriptorPath(fd, 'to-file'), constants.O_RDONLY | constants.O_NOFOLLOW))).toBe('ELOOP');
    expect((await readdir(home)).sort()).toEqual(['existing']);
    expect(await readFile(join(home, 'existing'), 'utf8')).toBe('home file');
  });

  it('rename within the held folder replaces a link at the new name (never writes through it)', async () => {
    const { moved, home, fd } = await holdThenSwap();
    await writeFile(join(home, 'bashrc'), 'home file');
    await symlink(join(home, 'bashrc'), join(moved, 'target'));
    await writeFile(join(moved, '.t.tmp'), 'new');
    await rename(descriptorPath(fd, '.t.tmp'), descriptorPath(fd, 'target'));
    expect((await lstat(join(moved, 'target'))).isFile()).toBe(true);
    expect(await readFile(join(moved, 'target'), 'utf8')).toBe('new');
    expect(await readFile(join(home, 'bashrc'), 'utf8')).toBe('home file');
  });

  it('fstat of an O_PATH descriptor tells the held folder from what is at its path now', async () => {
    const { sub, fd } = await holdThenSwap();
    await unlink(sub);
    await mkdir(sub); // a new folder at the old path: another inode
    const fresh = await openDescriptor(sub, noFollowFolder);
    try {
      expect(sameInode(await statDescriptor(fd, { bigint: true }), await statDescriptor(fresh, { bigint: true }))).toBe(false);
    } finally {
      closeDescriptor(fresh);
    }
    expect(await readlink(descriptorPath(fd))).toBe(join(directory.path, 'workspace', 'moved'));
  });
});
