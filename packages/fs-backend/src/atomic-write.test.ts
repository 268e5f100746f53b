import { spawn } from 'node:child_process';
import { readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemError, NodeFileSystem, StaleContentError } from './index.js';
import { compileSourcesForChild } from './test-support/compile-sources-for-child.js';
import { crashTestContent } from './test-support/crash-test-content.js';
import { createTemporaryDirectory } from './test-support/temporary-directory.js';

const sha256 = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');
const fileSystem = new NodeFileSystem();
const onLinux = process.platform === 'linux';
let directory: { path: string; remove(): Promise<void> };
beforeEach(async () => {
  directory = await createTemporaryDirectory();
});
afterEach(async () => {
  await directory.remove();
});

/** Names in `dir` that look like our temp files (`.<name>.<pid>.<12 hex>.tmp`). */
async function tempFilesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => /^\..*\.\d+\.[0-9a-f]{12}\.tmp$/.test(name));
}

describe('atomicWrite', () => {
  it('creates a new file and reports its hash', async () => {
    const target = join(directory.path, 'new.txt');
    const result = await fileSystem.atomicWrite(target, 'hello\n', { expectedHash: null });
    expect(result).toEqual({ sha256: sha256('hello\n'), created: true, byteLength: 6 });
    expect(await readFile(target, 'utf8')).toBe('hello\n');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('replaces an existing file whose content still has the expected hash', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'old');
    const result = await fileSystem.atomicWrite(target, Buffer.from('new'), { expectedHash: sha256('old').toUpperCase() });
    expect(result.created).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('new');
  });

  it('atomic_write_rejects_stale_content_without_overwriting', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'what the model read');
    const readHash = sha256('what the model read');
    await writeFile(target, 'what the user wrote meanwhile');

    const error = await fileSystem.atomicWrite(target, 'the edit', { expectedHash: readHash }).catch((caught: unknown) => caught);
    expect(StaleContentError.isInstance(error)).toBe(true);
    expect(FileSystemError.isInstance(error)).toBe(true);
    const stale = error as StaleContentError;
    expect(stale.code).toBe('stale_content');
    expect(stale.message).toMatch(/^file changed while edit was being prepared/);
    expect(stale.expectedHash).toBe(readHash);
    expect(stale.actualHash).toBe(sha256('what the user wrote meanwhile'));
    expect(await readFile(target, 'utf8')).toBe('what the user wrote meanwhile');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('expectedHash null refuses when the target appeared meanwhile', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'created by someone else');
    const error = await fileSystem.atomicWrite(target, 'mine', { expectedHash: null }).catch((caught: unknown) => caught);
    expect(StaleContentError.isInstance(error)).toBe(true);
    expect((error as StaleContentError).actualHash).toBe(sha256('created by someone else'));
    expect(await readFile(target, 'utf8')).toBe('created by someone else');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('replaces a symlink at the target instead of writing through it; the outside file is untouched', async () => {
    const outside = await createTemporaryDirectory();
    try {
      const outsideFile = join(outside.path, 'outside.txt');
      await writeFile(outsideFile, 'outside content');
      const link = join(directory.path, 'link.txt');
      await symlink(outsideFile, link);

      await fileSystem.atomicWrite(link, 'written in the workspace');
      expect((await lstat(link)).isSymbolicLink()).toBe(false);
      expect(await readFile(link, 'utf8')).toBe('written in the workspace');
      expect(await readFile(outsideFile, 'utf8')).toBe('outside content');
      expect(await tempFilesIn(directory.path)).toEqual([]);
    } finally {
      await outside.remove();
    }
  });

  it('a file swapped for a symlink between check and use never matches the expected hash', async () => {
    const outside = await createTemporaryDirectory();
    try {
      const target = join(directory.path, 'a.txt');
      await writeFile(target, 'same bytes');
      const readHash = sha256('same bytes');
      // The swap: same content behind a link, so following the link would wrongly match.
      const outsideFile = join(outside.path, 'secret.txt');
      await writeFile(outsideFile, 'same bytes');
      await rm(target);
      await symlink(outsideFile, target);

      const error = await fileSystem.atomicWrite(target, 'edit', { expectedHash: readHash }).catch((caught: unknown) => caught);
      expect(StaleContentError.isInstance(error)).toBe(true);
      expect((error as StaleContentError).actualHash).toBeNull();
      expect(await readlink(target)).toBe(outsideFile);
      expect(await readFile(outsideFile, 'utf8')).toBe('same bytes');
      expect(await tempFilesIn(directory.path)).toEqual([]);
    } finally {
      await outside.remove();
    }
  });

  it('preserves the permission bits of the file it replaces', async () => {
    for (const mode of [0o640, 0o755, 0o600, 0o444]) {
      const target = join(directory.path, `mode-${mode.toString(8)}.sh`);
      await writeFile(target, 'before');
      await chmod(target, mode);
      await fileSystem.atomicWrite(target, 'after');
      expect((await stat(target)).mode & 0o7777).toBe(mode);
      expect(await readFile(target, 'utf8')).toBe('after');
    }
  });

  it('uses an explicit mode exactly, and the usual umask default for new files', async () => {
    const explicit = join(directory.path, 'explicit');
    await fileSystem.atomicWrite(explicit, 'x', { mode: 0o751 });
    expect((await stat(explicit)).mode & 0o7777).toBe(0o751);

    const reference = join(directory.path, 'reference');
    await writeFile(reference, 'x');
    const created = join(directory.path, 'created');
    await fileSystem.atomicWrite(created, 'x');
    expect((await stat(created)).mode & 0o7777).toBe((await stat(reference)).mode & 0o7777);
  });

  it('leaves no temp file behind when it fails after the temp file was written', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'before');
    // An AbortSignal that reports aborted from its second check on: the first check is at the start,
    // the second right after the temp file was written and synced.
    let checks = 0;
    const signal = {
      get aborted() {
        checks += 1;
        return checks >= 2;
      },
      reason: new Error('cancelled by the test'),
    } as unknown as AbortSignal;
    const error = await fileSystem.atomicWrite(target, 'after', { signal }).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error) && error.code).toBe('cancelled');
    expect(checks).toBeGreaterThanOrEqual(2);
    expect(await readFile(target, 'utf8')).toBe('before');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('refuses a directory target, a missing parent and a relative path with distinct codes', async () => {
    await mkdir(join(directory.path, 'dir'));
    const isDirectory = await fileSystem.atomicWrite(join(directory.path, 'dir'), 'x').catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(isDirectory) && isDirectory.code).toBe('is_a_directory');
    const missingParent = await fileSystem.atomicWrite(join(directory.path, 'missing', 'a.txt'), 'x').catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(missingParent) && missingParent.code).toBe('not_found');
    const relativePath = await fileSystem.atomicWrite('relative.txt', 'x').catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(relativePath) && relativePath.code).toBe('invalid_path');
    expect(await tempFilesIn(directory.path)).toEqual([]);
  });

  it('a missing parent directory is named as such, with what to do, instead of "it does not exist"', async () => {
    const missingDirectory = join(directory.path, 'missing');
    const target = join(missingDirectory, 'a.txt');
    const error = await fileSystem.atomicWrite(target, 'x').catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error)).toBe(true);
    const mapped = error as FileSystemError;
    expect(mapped.code).toBe('not_found');
    expect(mapped.errno).toBe('ENOENT');
    expect(mapped.path).toBe(target);
    expect(mapped.message).toBe(`Cannot write ${target}: its directory ${missingDirectory} does not exist; create it first (mkdirp), then write again.`);
  });

  it('removes only leftovers of crashed writers for the same target, older than the attempt', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'before');
    const deadPid = await new Promise<number>((resolve, reject) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('error', reject);
      child.on('exit', () => resolve(child.pid as number));
    });
    const livingPid = process.ppid; // the vitest parent: alive and not us
    const names = {
      deadWriter: `.a.txt.${deadPid}.0123456789ab.tmp`,
      ourOwnOldAttempt: `.a.txt.${process.pid}.0123456789ac.tmp`,
      livingWriter: `.a.txt.${livingPid}.0123456789ad.tmp`,
      abandonedLivingWriter: `.a.txt.${livingPid}.0123456789ae.tmp`,
      otherTarget: `.b.txt.${deadPid}.0123456789af.tmp`,
      notOurPattern: `.a.txt.tmp`,
      newerThanAttempt: `.a.txt.${deadPid}.0123456789b0.tmp`,
    };
    for (const name of Object.values(names)) await writeFile(join(directory.path, name), 'partial');
    const past = new Date(Date.now() - 60_000);
    for (const name of [names.deadWriter, names.ourOwnOldAttempt, names.livingWriter, names.otherTarget, names.notOurPattern]) {
      await utimes(join(directory.path, name), past, past);
    }
    const longAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(directory.path, names.abandonedLivingWriter), longAgo, longAgo);
    const future = new Date(Date.now() + 60 * 60 * 1000);
    await utimes(join(directory.path, names.newerThanAttempt), future, future);

    await fileSystem.atomicWrite(target, 'after');

    const left = new Set(await readdir(directory.path));
    expect(left.has(names.deadWriter)).toBe(false);
    expect(left.has(names.ourOwnOldAttempt)).toBe(false);
    expect(left.has(names.abandonedLivingWriter)).toBe(false);
    expect(left.has(names.livingWriter)).toBe(true);
    expect(left.has(names.otherTarget)).toBe(true);
    expect(left.has(names.notOurPattern)).toBe(true);
    expect(left.has(names.newerThanAttempt)).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('after');
  });

  // Under mutation testing (`pnpm mutation`) the writer is a separate program no mutant reaches, so
  // this test can kill none of them and only costs minutes there; it runs in every other test run.
  it.skipIf(process.env['STRYKER_MUTATOR_WORKER'] !== undefined)('a writer killed with SIGKILL at a random moment leaves exactly A or B, and the next write cleans up its temp files', async () => {
    const work = await createTemporaryDirectory();
    try {
      const childScript = await compileSourcesForChild(work.path, 'test-support/atomic-write-loop.ts');
      const validHashes = new Map([
        [sha256(crashTestContent('A')), 'A'],
        [sha256(crashTestContent('B')), 'B'],
      ]);
      const target = join(directory.path, 'big.bin');
      const seen: string[] = [];
      let roundsWithLeftovers = 0;
      for (let round = 0; round < 6; round += 1) {
        const child = spawn(process.execPath, [childScript, target], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
        // Kill during write number 1–4 (write 0 has completed by then, so the target exists), at a random moment.
        const killAtStart = 1 + Math.floor(Math.random() * 4);
        await new Promise<void>((resolve, reject) => {
          let buffered = '';
          child.stdout.on('data', (chunk: Buffer) => {
            buffered += chunk.toString();
            if (buffered.includes(`start ${killAtStart}\n`)) resolve();
          });
          child.on('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
        });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        child.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');

        const content = await readFile(target);
        const which = validHashes.get(sha256(content));
        expect(which, `round ${round}: the target is neither A nor B (${content.length} bytes)`).toBeDefined();
        seen.push(which as string);
        if ((await tempFilesIn(directory.path)).length > 0) roundsWithLeftovers += 1;

        await fileSystem.atomicWrite(target, crashTestContent('A'));
        expect(await tempFilesIn(directory.path)).toEqual([]);
      }
      expect(seen).toHaveLength(6);
      // Not asserted (timing), but reported: how often the kill actually landed mid-write.
      console.info(`crash test: final contents ${seen.join('')}, rounds with leftover temp files: ${roundsWithLeftovers}/6`);
    } finally {
      await work.remove();
    }
    // Seven Node processes and a TypeScript transpile: on a loaded two-core machine that alone can take a minute.
  }, 240_000);
});

describe('atomicWrite between check and use (§6.2)', () => {
  /**
   * A signal whose `aborted` is read once when the write starts, once after the temp file is
   * written and once just before the rename: the swap runs at the last read, which is exactly
   * the window a racing process would need. No timing involved.
   */
  function swapJustBeforeRename(swap: () => void): AbortSignal {
    let reads = 0;
    return {
      get aborted() {
        reads += 1;
        if (reads === 3) swap();
        return false;
      },
      reason: undefined,
      addEventListener() {},
      removeEventListener() {},
      throwIfAborted() {},
    } as unknown as AbortSignal;
  }

  it('refuses to rename when the checked folder was replaced by a symbolic link meanwhile, and writes nothing anywhere', async () => {
    const checked = join(directory.path, 'checked');
    const elsewhere = join(directory.path, 'elsewhere');
    await mkdir(checked);
    await mkdir(elsewhere);
    await writeFile(join(checked, 'a.txt'), 'original\n');
    const signal = swapJustBeforeRename(() => {
      renameSync(checked, join(directory.path, 'moved-away'));
      symlinkSync(elsewhere, checked);
    });
    const error = await fileSystem.atomicWrite(join(checked, 'a.txt'), 'planted\n', { signal }).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error) && error.code).toBe('invalid_path');
    expect((error as Error).message).toBe(
      `Cannot write ${join(checked, 'a.txt')}: its folder ${checked} now resolves to ${elsewhere} (a folder on the way is a symbolic link); nothing was written. Resolve the path again (a canonical path, without symbolic links) and retry.`,
    );
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readFile(join(directory.path, 'moved-away/a.txt'), 'utf8')).toBe('original\n');
    // The temp file is removed from the folder it was written in, wherever that folder is now.
    expect(await tempFilesIn(join(directory.path, 'moved-away'))).toEqual(onLinux ? [] : expect.any(Array));
  });

  it('refuses to rename a temp file that is no longer the one it wrote, and leaves that file alone', async () => {
    const target = join(directory.path, 'a.txt');
    await writeFile(target, 'original\n');
    const signal = swapJustBeforeRename(() => {
      const [temp] = readdirSync(directory.path).filter((name) => name.endsWith('.tmp'));
      // Written first, then renamed over: a new inode (an unlinked one may be reused at once).
      writeFileSync(join(directory.path, 'planted'), 'planted\n');
      renameSync(join(directory.path, 'planted'), join(directory.path, temp as string));
    });
    const error = await fileSystem.atomicWrite(target, 'mine\n', { signal }).catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error) && error.code).toBe('invalid_path');
    expect((error as Error).message).toMatch(/was replaced while the content was being written; nothing was written/);
    expect(await readFile(target, 'utf8')).toBe('original\n');
    const [left] = await tempFilesIn(directory.path);
    expect(await readFile(join(directory.path, left as string), 'utf8')).toBe('planted\n');
  });

  it('refuses a path whose folder is not canonical when the write starts (callers pass the checked real path)', async () => {
    await mkdir(join(directory.path, 'real'));
    await symlink(join(directory.path, 'real'), join(directory.path, 'alias'));
    const error = await fileSystem.atomicWrite(join(directory.path, 'alias/a.txt'), 'x').catch((caught: unknown) => caught);
    expect(FileSystemError.isInstance(error) && error.code).toBe('invalid_path');
    expect(await readdir(join(directory.path, 'real'))).toEqual([]);
  });
});
