import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forceDescriptorPaths } from './descriptor-paths.js';
import { FileSystemError, NodeFileSystem, pathFromBytes, pathToBytes, type AsyncFileSystem } from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

// Exact file names: names are bytes on Linux (ext4 and tmpfs take any but "/" and NUL). The tests make
// them with Buffer paths and check every call of NodeFileSystem on them, by their path string.

const fileSystem = new NodeFileSystem();
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  forceDescriptorPaths(undefined);
  await directory.remove();
});

/** The real entry `<directory>/<name bytes>` made with a Buffer path, and its path string. */
function byteName(...parts: (string | number)[]): { bytes: Buffer; name: string } {
  const bytes = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.of(part))));
  return { bytes, name: pathFromBytes(bytes) };
}
const under = (folder: string, bytes: Buffer) => Buffer.concat([Buffer.from(`${folder}/`), bytes]);
const hostNames = (folder: string) => readdirSync(folder, { encoding: 'buffer' }).map((name) => name.toString('hex')).sort();

describe('issue 25: a file name that is not valid UTF-8 through NodeFileSystem', () => {
  it('readdir and listFolderSync give the exact name, and every call takes it back by that path string', async () => {
    const file = byteName('caf', 0xe9, '.txt');
    const folder = byteName('dir', 0xff);
    writeFileSync(under(directory.path, file.bytes), 'hello\n');
    mkdirSync(under(directory.path, folder.bytes));
    writeFileSync(join(directory.path, 'plain.txt'), 'x');

    const names = (await fileSystem.readdir(directory.path)).map((entry) => `${entry.name}:${entry.kind}`).sort();
    expect(names).toEqual(['caf\uDCE9.txt:file', 'dir\uDCFF:directory', 'plain.txt:file']);
    expect(fileSystem.listFolderSync(directory.path)?.map((entry) => entry.name).sort()).toEqual(['caf\uDCE9.txt', 'dir\uDCFF', 'plain.txt']);

    const path = join(directory.path, file.name);
    expect((await fileSystem.stat(path)).size).toBe(6);
    expect((await fileSystem.lstat(path)).kind).toBe('file');
    expect(await fileSystem.realpath(path)).toBe(path);
    expect(Buffer.from(await fileSystem.readFile(path)).toString()).toBe('hello\n');
    const lines: string[] = [];
    await fileSystem.readLines(path, { onLine: (line) => void lines.push(line.text) });
    expect(lines).toEqual(['hello']);
    const chunks: Uint8Array[] = [];
    for await (const chunk of fileSystem.readChunks(path)) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('hello\n');
    expect(await fileSystem.sha256File(path)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a link to a folder with such a name: realpath gives its bytes, not U+FFFD', async () => {
    const folder = byteName('r', 0xe9, 'al');
    mkdirSync(under(directory.path, folder.bytes));
    symlinkSync(under(directory.path, folder.bytes), join(directory.path, 'link'));
    expect(await fileSystem.realpath(join(directory.path, 'link'))).toBe(join(directory.path, folder.name));
    expect((await fileSystem.readdir(directory.path, { followSymlinks: true })).find((entry) => entry.name === 'link')?.kind).toBe('directory');
  });

  for (const descriptors of [true, false]) {
    it(`atomicWrite, mkdirp and unlink work on such names (${descriptors ? 'descriptor paths' : 'the path fallback'}), leaving no temp file`, async () => {
      forceDescriptorPaths(descriptors ? undefined : false);
      const folder = byteName('new', 0xe9);
      const file = byteName('f', 0xc3, 0x28, '.txt'); // C3 28: a lead byte without its continuation
      const folderPath = join(directory.path, folder.name, 'sub');
      await fileSystem.mkdirp(folderPath);
      const path = join(folderPath, file.name);
      const created = await fileSystem.atomicWrite(path, 'one', { expectedHash: null });
      expect(created.created).toBe(true);
      const hostPath = Buffer.concat([under(directory.path, folder.bytes), Buffer.from('/sub/'), file.bytes]);
      expect(readFileSync(hostPath, 'utf8')).toBe('one');
      await fileSystem.atomicWrite(path, 'two', { expectedHash: created.sha256 });
      expect(readFileSync(hostPath, 'utf8')).toBe('two');
      expect(hostNames(directory.path)).toEqual([folder.bytes.toString('hex')]);
      const stale = await fileSystem.atomicWrite(path, 'three', { expectedHash: created.sha256 }).catch((error: unknown) => error);
      expect(FileSystemError.isInstance(stale) && stale.code).toBe('stale_content');
      expect(readdirSync(Buffer.concat([under(directory.path, folder.bytes), Buffer.from('/sub')]), { encoding: 'buffer' }).map((name) => name.toString('hex'))).toEqual([file.bytes.toString('hex')]);
      await fileSystem.unlink(path);
      expect(readdirSync(Buffer.concat([under(directory.path, folder.bytes), Buffer.from('/sub')]))).toEqual([]);
    });
  }

  it('errors name the path in its \\xNN spelling and keep the exact path in `path`', async () => {
    const path = join(directory.path, pathFromBytes(Buffer.of(0x61, 0xe9)));
    const error = await fileSystem.readFile(path).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error)).toBe(true);
    expect((error as FileSystemError).message).toBe(`Cannot read ${directory.path}/a\\xE9: it does not exist.`);
    expect((error as FileSystemError).path).toBe(path);
    expect(pathToBytes((error as FileSystemError).path!)).toEqual(Buffer.from([...Buffer.from(`${directory.path}/a`), 0xe9]));
  });

  it('leftover temp files of a write to such a name are found and removed (their names are not UTF-8 either)', async () => {
    const file = byteName('t', 0xe9);
    const leftover = Buffer.concat([Buffer.from('.'), file.bytes, Buffer.from('.999999999.0123456789ab.tmp')]);
    writeFileSync(under(directory.path, leftover), 'old');
    utimesSync(under(directory.path, leftover), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const files: AsyncFileSystem = fileSystem;
    await files.atomicWrite(join(directory.path, file.name), 'new');
    expect(hostNames(directory.path)).toEqual([file.bytes.toString('hex')]);
  });
});
