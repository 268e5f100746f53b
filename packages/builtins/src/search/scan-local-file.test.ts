import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckedFolders, scanLocalFile } from './scan-local-file.js';

// The search workers' reader (architecture §3.7 "Races"): the walk checked a path, then anything
// may be put in its place before the file is opened. Whatever was swapped in, the bytes read are
// those of the walked file or nothing — never those of a file a link leads to (a credential).
let root: string;
/** One search worker batch: the folders it keeps open between its files. */
let folders: CheckedFolders;
beforeEach(async () => {
  folders = new CheckedFolders();
  root = await realpath(await mkdtemp(join(tmpdir(), 'ow-scan-local-')));
  await mkdir(join(root, 'workspace', 'src'), { recursive: true });
  await mkdir(join(root, 'secret'));
  await writeFile(join(root, 'workspace', 'src', 'a.txt'), 'walked a\n');
  await writeFile(join(root, 'workspace', 'src', 'b.txt'), 'walked b\n');
  await writeFile(join(root, 'secret', 'a.txt'), 'SECRET a\n');
  await writeFile(join(root, 'secret', 'b.txt'), 'SECRET b\n');
});
afterEach(async () => {
  folders.close();
  await rm(root, { recursive: true, force: true });
});

/** What `scanLocalFile` reads of `path` (in the batch of `within`, or checked on its own): its outcome and the text it was given. */
function read(path: string, within: CheckedFolders | 'each file' = folders): { outcome: string; text: string } {
  let text = '';
  const outcome = scanLocalFile(
    path,
    (region) => {
      text += region.toString('utf8');
      return true;
    },
    false,
    within === 'each file' ? undefined : within,
  );
  return { outcome, text };
}

describe('scanLocalFile: the file read is the walked one (the check is kept, once per folder)', () => {
  it('reads a file of a folder, and the next file of the same folder', () => {
    expect(read(join(root, 'workspace', 'src', 'a.txt'))).toEqual({ outcome: 'searched', text: 'walked a\n' });
    expect(read(join(root, 'workspace', 'src', 'b.txt'))).toEqual({ outcome: 'searched', text: 'walked b\n' });
  });

  it('reads nothing when the folder, a folder above it or the file itself became a link', async () => {
    const src = join(root, 'workspace', 'src');
    await rename(src, join(root, 'workspace', 'moved'));
    await symlink(join(root, 'secret'), src);
    expect(read(join(src, 'a.txt'))).toEqual({ outcome: 'unreadable', text: '' });
    expect(read(join(src, 'a.txt'), 'each file')).toEqual({ outcome: 'unreadable', text: '' });
    folders.close();

    // A folder above: `workspace` becomes a link to a tree whose `src` holds the secret.
    await mkdir(join(root, 'evil'));
    await symlink(join(root, 'secret'), join(root, 'evil', 'src-link'));
    await rename(join(root, 'secret'), join(root, 'evil', 'src'));
    await rename(join(root, 'workspace'), join(root, 'workspace-moved'));
    await symlink(join(root, 'evil'), join(root, 'workspace'));
    expect(read(join(root, 'workspace', 'src', 'b.txt'))).toEqual({ outcome: 'unreadable', text: '' });
    expect(read(join(root, 'workspace', 'src', 'b.txt'), 'each file')).toEqual({ outcome: 'unreadable', text: '' });
    folders.close();
    await rm(join(root, 'workspace'));
    await rename(join(root, 'evil', 'src'), join(root, 'secret'));

    await mkdir(join(root, 'plain'));
    await symlink(join(root, 'secret', 'a.txt'), join(root, 'plain', 'a.txt'));
    expect(read(join(root, 'plain', 'a.txt'))).toEqual({ outcome: 'unreadable', text: '' });
    expect(read(join(root, 'plain', 'a.txt'), 'each file')).toEqual({ outcome: 'unreadable', text: '' });
  });

  it('a folder swapped for a link after its first file was read: its next files are still read from the walked folder', async () => {
    const src = join(root, 'workspace', 'src');
    expect(read(join(src, 'a.txt')).text).toBe('walked a\n');
    await rename(src, join(root, 'workspace', 'moved'));
    await symlink(join(root, 'secret'), src);
    // The folder stays open between files of one batch: the name is looked up in it, not at its path.
    expect(read(join(src, 'b.txt'))).toEqual({ outcome: 'searched', text: 'walked b\n' });
    // A new batch opens and checks the folder again: now a link, so nothing is read.
    folders.close();
    expect(read(join(src, 'b.txt'))).toEqual({ outcome: 'unreadable', text: '' });
  });

  it('without the folders of a batch, each file is checked on its own: a folder swapped after its first file gives nothing more', async () => {
    const src = join(root, 'workspace', 'src');
    expect(read(join(src, 'a.txt'), 'each file').text).toBe('walked a\n');
    await rename(src, join(root, 'workspace', 'moved'));
    await symlink(join(root, 'secret'), src);
    expect(read(join(src, 'b.txt'), 'each file')).toEqual({ outcome: 'unreadable', text: '' });
  });
});
