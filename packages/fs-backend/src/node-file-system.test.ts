import { createHash } from 'node:crypto';
import { appendFile, chmod, mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_READ_FILE_MAX_BYTES,
  FileSystemError,
  FileTooLargeError,
  NodeFileSystem,
  StaleContentError,
  type AsyncFileSystem,
} from './index.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const fileSystem: AsyncFileSystem = new NodeFileSystem();
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

describe('NodeFileSystem metadata', () => {
  it('stat follows symlinks, lstat does not, both in our own small FileStat shape', async () => {
    const file = join(directory.path, 'file.txt');
    await writeFile(file, 'twelve bytes');
    await chmod(file, 0o640);
    const when = new Date('2024-05-06T07:08:09.000Z');
    await utimes(file, when, when);
    const link = join(directory.path, 'link');
    await symlink(file, link);

    expect(await fileSystem.stat(file)).toEqual({ kind: 'file', size: 12, mtimeMs: when.getTime(), mode: 0o640 });
    expect(await fileSystem.stat(link)).toEqual({ kind: 'file', size: 12, mtimeMs: when.getTime(), mode: 0o640 });
    expect((await fileSystem.lstat(link)).kind).toBe('symlink');
    expect((await fileSystem.stat(directory.path)).kind).toBe('directory');
    expect(await codeOf(fileSystem.stat(join(directory.path, 'missing')))).toBe('not_found');
    expect(await codeOf(fileSystem.stat(join(file, 'below-a-file')))).toBe('not_a_directory');
  });

  it('realpath resolves symlinked directories', async () => {
    await mkdir(join(directory.path, 'real'));
    await symlink(join(directory.path, 'real'), join(directory.path, 'alias'));
    expect(await fileSystem.realpath(join(directory.path, 'alias'))).toBe(join(directory.path, 'real'));
    expect(await codeOf(fileSystem.realpath(join(directory.path, 'nothing')))).toBe('not_found');
  });

  it('listFolderSync lists one level with the same kinds, and nothing for a link, a file or a missing folder', async () => {
    await mkdir(join(directory.path, 'sub'));
    await writeFile(join(directory.path, 'file.txt'), '');
    await symlink(join(directory.path, 'sub'), join(directory.path, 'to-dir'));
    await symlink(join(directory.path, 'gone'), join(directory.path, 'dangling'));
    const listed = new NodeFileSystem().listFolderSync(directory.path);
    expect([...(listed ?? [])].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...(await fileSystem.readdir(directory.path))].sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(listed).toHaveLength(4);
    // A folder swapped for a link to one is not listed through the link (the walk's swap check).
    expect(new NodeFileSystem().listFolderSync(join(directory.path, 'to-dir'))).toBeUndefined();
    expect(new NodeFileSystem().listFolderSync(join(directory.path, 'file.txt'))).toBeUndefined();
    expect(new NodeFileSystem().listFolderSync(join(directory.path, 'gone'))).toBeUndefined();
    expect(() => new NodeFileSystem().listFolderSync('sub')).toThrow(/absolute/);
  });

  it('readdir lists one level with kinds, following symlinks only when asked', async () => {
    await mkdir(join(directory.path, 'sub'));
    await writeFile(join(directory.path, 'sub', 'deep.txt'), '');
    await writeFile(join(directory.path, 'file.txt'), '');
    await symlink(join(directory.path, 'sub'), join(directory.path, 'to-dir'));
    await symlink(join(directory.path, 'file.txt'), join(directory.path, 'to-file'));
    await symlink(join(directory.path, 'gone'), join(directory.path, 'dangling'));
    const sorted = (entries: { name: string; kind: string }[]) => [...entries].sort((a, b) => a.name.localeCompare(b.name));

    expect(sorted(await fileSystem.readdir(directory.path))).toEqual([
      { name: 'dangling', kind: 'symlink' },
      { name: 'file.txt', kind: 'file' },
      { name: 'sub', kind: 'directory' },
      { name: 'to-dir', kind: 'symlink' },
      { name: 'to-file', kind: 'symlink' },
    ]);
    expect(sorted(await fileSystem.readdir(directory.path, { followSymlinks: true }))).toEqual([
      { name: 'dangling', kind: 'symlink' },
      { name: 'file.txt', kind: 'file' },
      { name: 'sub', kind: 'directory' },
      { name: 'to-dir', kind: 'directory' },
      { name: 'to-file', kind: 'file' },
    ]);
    expect(await codeOf(fileSystem.readdir(join(directory.path, 'file.txt')))).toBe('not_a_directory');
  });

  it('mkdirp creates missing parents and accepts an existing directory; unlink removes a link, not its target', async () => {
    const deep = join(directory.path, 'a', 'b', 'c');
    await fileSystem.mkdirp(deep);
    await fileSystem.mkdirp(deep);
    expect((await fileSystem.stat(deep)).kind).toBe('directory');
    await writeFile(join(directory.path, 'file'), 'x');
    expect(await codeOf(fileSystem.mkdirp(join(directory.path, 'file', 'sub')))).toBe('not_a_directory');

    const target = join(directory.path, 'target.txt');
    await writeFile(target, 'kept');
    await symlink(target, join(directory.path, 'link'));
    await fileSystem.unlink(join(directory.path, 'link'));
    expect((await fileSystem.stat(target)).kind).toBe('file');
    expect(await codeOf(fileSystem.lstat(join(directory.path, 'link')))).toBe('not_found');
    expect(await codeOf(fileSystem.unlink(deep))).toBe('is_a_directory');
  });

  it('refuses relative paths and NUL bytes everywhere instead of resolving against the process cwd', async () => {
    expect(await codeOf(fileSystem.stat('package.json'))).toBe('invalid_path');
    expect(await codeOf(fileSystem.readdir('.'))).toBe('invalid_path');
    expect(await codeOf(fileSystem.readFile(`${directory.path}/a\0b`))).toBe('invalid_path');
    expect(await codeOf(fileSystem.unlink('x'))).toBe('invalid_path');
  });
});

describe('NodeFileSystem content', () => {
  it('readFile returns the bytes of a file within maxBytes', async () => {
    const path = join(directory.path, 'a.bin');
    const content = Buffer.from([0, 1, 2, 255, 10]);
    await writeFile(path, content);
    expect(Buffer.from(await fileSystem.readFile(path, { maxBytes: 5 })).equals(content)).toBe(true);
    expect((await fileSystem.readFile(join(directory.path, 'a.bin'))).length).toBe(5);
    expect(DEFAULT_READ_FILE_MAX_BYTES).toBe(64 * 1024 * 1024);
    const empty = join(directory.path, 'empty');
    await writeFile(empty, '');
    expect((await fileSystem.readFile(empty, { maxBytes: 0 })).length).toBe(0);
  });

  it('readFile refuses a larger file with FileTooLargeError before reading it', async () => {
    const path = join(directory.path, 'big.txt');
    await writeFile(path, Buffer.alloc(1024 * 1024 + 1, 'a'));
    const error = await fileSystem.readFile(path, { maxBytes: 1024 * 1024 }).catch((caught: unknown) => caught);
    expect(FileTooLargeError.isInstance(error)).toBe(true);
    expect(FileSystemError.isInstance(error)).toBe(true);
    expect(StaleContentError.isInstance(error)).toBe(false);
    const tooLarge = error as FileTooLargeError;
    expect(tooLarge.code).toBe('too_large');
    expect(tooLarge.size).toBe(1024 * 1024 + 1);
    expect(tooLarge.maxBytes).toBe(1024 * 1024);
    expect(tooLarge.message).toContain('1048577 bytes');
    expect(await codeOf(fileSystem.readFile(directory.path))).toBe('is_a_directory');
  });

  it('readChunks yields the whole file in fresh chunks of at most chunkBytes', async () => {
    const path = join(directory.path, 'data.bin');
    const content = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
    await writeFile(path, content);
    const chunks: Uint8Array[] = [];
    for await (const chunk of fileSystem.readChunks(path, { chunkBytes: 64 })) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.length <= 64)).toBe(true);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    // Chunks are not reused buffers: the first still holds the first bytes.
    expect(Buffer.from(chunks[0] ?? []).equals(content.subarray(0, 64))).toBe(true);
    expect(await codeOf((async () => { for await (const _ of fileSystem.readChunks(directory.path)) void _; })())).toBe('is_a_directory');
  });

  it('readFile returns bytes that own their memory, not a view into a shared pool', async () => {
    const path = join(directory.path, 'small.txt');
    await writeFile(path, 'ten bytes!');
    const bytes = await fileSystem.readFile(path);
    expect(Buffer.from(bytes).toString()).toBe('ten bytes!');
    // A view into Node's 8 KiB allocation pool would expose unrelated bytes through `bytes.buffer`.
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBeLessThanOrEqual(11);
  });

  it('readChunks does not pin a whole read buffer behind each small chunk, and reads a file that grows', async () => {
    for (const size of [1, 100, 5000, 1024 * 1024 + 5]) {
      const path = join(directory.path, `size-${size}.bin`);
      const content = Buffer.alloc(size);
      for (let index = 0; index < size; index += 1) content[index] = (index * 31) & 0xff;
      await writeFile(path, content);
      const chunks: Uint8Array[] = [];
      for await (const chunk of fileSystem.readChunks(path)) chunks.push(chunk);
      expect(Buffer.concat(chunks).equals(content)).toBe(true);
      // Chunks are documented as fresh, so callers may keep them: each keeps at most twice its own size alive.
      for (const chunk of chunks) expect(chunk.buffer.byteLength).toBeLessThanOrEqual(2 * chunk.length);
    }
    const growing = join(directory.path, 'growing.log');
    await writeFile(growing, 'first\n');
    const seen: Uint8Array[] = [];
    for await (const chunk of fileSystem.readChunks(growing)) {
      if (seen.length === 0) await appendFile(growing, 'x'.repeat(5000));
      seen.push(chunk);
    }
    expect(Buffer.concat(seen).toString()).toBe(`first\n${'x'.repeat(5000)}`);
  });

  it('sha256File equals node:crypto over the same bytes, across chunk boundaries', async () => {
    const path = join(directory.path, 'data.bin');
    const content = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let index = 0; index < content.length; index += 1) content[index] = (index * 7919) & 0xff;
    await writeFile(path, content);
    const expected = createHash('sha256').update(content).digest('hex');
    expect(await fileSystem.sha256File(path)).toBe(expected);
    expect(await new NodeFileSystem({ chunkBytes: 4096 + 3 }).sha256File(path)).toBe(expected);
    expect((await fileSystem.readLines(path)).sha256).toBe(expected);
  });
});

describe('FileSystemError', () => {
  it('identifies instances by a registered symbol, so a second copy of the package still recognises them', () => {
    const error = new FileSystemError({ code: 'not_found', path: '/x', message: 'Cannot read /x: it does not exist.' });
    expect(FileSystemError.isInstance(error)).toBe(true);
    expect(FileSystemError.isInstance(new Error('plain'))).toBe(false);
    expect(FileSystemError.isInstance(null)).toBe(false);
    const lookalike = Object.assign(new Error('from another copy'), { [Symbol.for('openwork.fs-backend.error')]: true });
    expect(FileSystemError.isInstance(lookalike)).toBe(true);
    const stale = new StaleContentError('/x', null, 'a'.repeat(64));
    expect(FileSystemError.isInstance(stale) && StaleContentError.isInstance(stale)).toBe(true);
    expect(StaleContentError.isInstance(error)).toBe(false);
    expect(FileTooLargeError.isInstance(stale)).toBe(false);
  });

  it('maps errno to codes with a message that names the operation, the path and the reason', async () => {
    const missing = join(directory.path, 'missing.txt');
    const error = await fileSystem.readFile(missing).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error)).toBe(true);
    const mapped = error as FileSystemError;
    expect(mapped.code).toBe('not_found');
    expect(mapped.errno).toBe('ENOENT');
    expect(mapped.path).toBe(missing);
    expect(mapped.message).toBe(`Cannot read ${missing}: it does not exist.`);
  });
});
