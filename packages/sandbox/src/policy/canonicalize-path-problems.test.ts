import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizePath, canonicalizePathSync, type CanonicalizePathOptions, type PathResolution } from '../index.js';

let root: string;
let ws: string;
let outside: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-canonical-problems-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, 'file.txt'), 'outside');
  await fs.symlink(path.join(outside, 'file.txt'), path.join(ws, 'file-link'));
  await fs.symlink(path.join(outside, 'gone.txt'), path.join(ws, 'dangling'));
  await fs.symlink(path.join(ws, 'loop-b'), path.join(ws, 'loop-a'));
  await fs.symlink(path.join(ws, 'loop-a'), path.join(ws, 'loop-b'));
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Both entry points, which must agree on every input (one algorithm, two drivers). */
async function canonical(input: string, options: CanonicalizePathOptions): Promise<PathResolution> {
  const asynchronous = await canonicalizePath(input, options);
  expect(canonicalizePathSync(input, options), `sync ${input}`).toStrictEqual(asynchronous);
  return asynchronous;
}

describe('canonicalizePath problems and edges (spec §6.2)', () => {
  it('a new folder at the top level is /name, not //name', async () => {
    const name = `ow-not-here-${randomBytes(6).toString('hex')}`;
    expect(await canonical(`/${name}/new.txt`, { cwd: ws, intent: 'may-create' })).toStrictEqual({ ok: true, path: `/${name}/new.txt` });
    expect(await canonical(`../../../../../../../../${name}`, { cwd: ws, intent: 'may-create' })).toStrictEqual({ ok: true, path: `/${name}` });
    expect(await canonical('/', { cwd: ws, intent: 'may-create' })).toStrictEqual({ ok: true, path: '/' });
    expect(await canonical('/..', { cwd: ws, intent: 'must-exist' })).toStrictEqual({ ok: true, path: '/' });
  });

  it('must-exist through a dangling link says the link dangles, not that the file is missing', async () => {
    expect(await canonical('dangling', { cwd: ws, intent: 'must-exist' })).toStrictEqual({
      ok: false,
      problem: 'dangling-symlink',
      message: `dangling goes through the dangling symbolic link ${path.join(ws, 'dangling')} (its target does not exist); refusing, because writing through it would create a file wherever the link points. Remove the link or use the target path.`,
    });
    // A plain missing name is `not-found`, with what to do next.
    expect(await canonical('missing.txt', { cwd: ws, intent: 'must-exist' })).toStrictEqual({
      ok: false,
      problem: 'not-found',
      message: 'missing.txt does not exist. Check the path (list the parent directory to see what is there).',
    });
  });

  it('a symbolic link loop is named as such, on the target, below it, and for must-exist', async () => {
    const loopMessage = (display: string, at: string) => `${display} goes through a symbolic link loop at ${at}; use a path without the loop.`;
    expect(await canonical('loop-a', { cwd: ws, intent: 'must-exist' })).toStrictEqual({
      ok: false,
      problem: 'symlink-loop',
      message: loopMessage('loop-a', path.join(ws, 'loop-a')),
    });
    expect(await canonical('loop-a', { cwd: ws, intent: 'may-create' })).toStrictEqual({
      ok: false,
      problem: 'symlink-loop',
      message: loopMessage('loop-a', path.join(ws, 'loop-a')),
    });
    // Below the loop, lstat itself fails with ELOOP: refused, not skipped on the way up.
    expect(await canonical('loop-a/new.txt', { cwd: ws, intent: 'may-create' })).toStrictEqual({
      ok: false,
      problem: 'symlink-loop',
      message: loopMessage('loop-a/new.txt', path.join(ws, 'loop-a/new.txt')),
    });
  });

  it('an error other than "missing" on the way up is refused as inaccessible instead of skipped', async () => {
    // ENAMETOOLONG: a name longer than the file system allows. Walking past it to an existing
    // ancestor would hand out a path nothing can create.
    const longName = 'n'.repeat(300);
    const tooLong = await canonical(`${longName}/file.txt`, { cwd: ws, intent: 'may-create' });
    expect(tooLong).toStrictEqual({
      ok: false,
      problem: 'inaccessible',
      message: `${longName}/file.txt cannot be resolved (ENAMETOOLONG at ${path.join(ws, longName, 'file.txt')}).`,
    });
    expect(await canonical(longName, { cwd: ws, intent: 'must-exist' })).toStrictEqual({
      ok: false,
      problem: 'inaccessible',
      message: `${longName} cannot be resolved (ENAMETOOLONG at ${path.join(ws, longName)}).`,
    });
  });

  it('a link to a file cannot be a directory on the way', async () => {
    expect(await canonical('file-link/new.txt', { cwd: ws, intent: 'may-create' })).toStrictEqual({
      ok: false,
      problem: 'not-a-directory',
      message: `file-link/new.txt: a component of the path is a file, not a directory (${path.join(ws, 'file-link')}).`,
    });
    // The link itself as the target is fine: its real path is the file.
    expect(await canonical('file-link', { cwd: ws, intent: 'may-create' })).toStrictEqual({ ok: true, path: path.join(outside, 'file.txt') });
  });

  it('a file on the way is named with the path where it stands', async () => {
    expect(await canonical(`${outside}/file.txt/deeper/new.txt`, { cwd: '/', intent: 'may-create' })).toStrictEqual({
      ok: false,
      problem: 'not-a-directory',
      message: `${outside}/file.txt/deeper/new.txt: a component of the path is a file, not a directory (${path.join(outside, 'file.txt')}).`,
    });
  });

  it('an empty path and a NUL byte say what to send instead', async () => {
    expect(await canonical('', { cwd: ws, intent: 'may-create' })).toStrictEqual({
      ok: false,
      problem: 'empty',
      message: 'The path is empty; send an absolute path or one relative to the working directory.',
    });
    expect(await canonical('a\0b', { cwd: ws, intent: 'must-exist' })).toStrictEqual({
      ok: false,
      problem: 'nul-byte',
      message: 'The path contains a NUL byte; send the path without it.',
    });
  });

  it('a working directory with a NUL byte is a programmer error, like a relative one', async () => {
    await expect(canonicalizePath('x', { cwd: `${ws}\0`, intent: 'may-create' })).rejects.toThrow(/absolute working directory/);
    expect(() => canonicalizePathSync('x', { cwd: 'relative', intent: 'may-create' })).toThrow(/absolute working directory/);
  });
});
