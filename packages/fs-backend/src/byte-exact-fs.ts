import { constants, type BigIntStats, type Dirent, type MakeDirectoryOptions, type Mode, type Stats } from 'node:fs';
import * as fs from 'node:fs/promises';
import { pathFromBytes, toNodePath } from './path-bytes.js';

// The `node:fs` calls of this package, taking and giving path strings whose U+DC80–U+DCFF stand
// for raw bytes (`path-bytes.ts`, exact file names): a path with such bytes reaches the kernel as those
// bytes, and names and real paths come back in the same form. Node decodes names as UTF-8 and
// puts U+FFFD where bytes are not; only then (rare) is the call repeated asking for bytes, so the
// all-UTF-8 case costs what it did.

const REPLACEMENT = '\uFFFD';

export function lstat(path: string): Promise<Stats>;
export function lstat(path: string, options: { bigint: true }): Promise<BigIntStats>;
export function lstat(path: string, options?: { bigint: true }): Promise<Stats | BigIntStats> {
  return options === undefined ? fs.lstat(toNodePath(path)) : fs.lstat(toNodePath(path), options);
}

export function stat(path: string): Promise<Stats> {
  return fs.stat(toNodePath(path));
}

export function open(path: string, flags: number, mode?: Mode): Promise<fs.FileHandle> {
  return fs.open(toNodePath(path), flags, mode);
}

export function rename(from: string, to: string): Promise<void> {
  return fs.rename(toNodePath(from), toNodePath(to));
}

export function unlink(path: string): Promise<void> {
  return fs.unlink(toNodePath(path));
}

export function symlink(target: string, path: string): Promise<void> {
  return fs.symlink(toNodePath(target), toNodePath(path));
}

/** A link's target, exact (its bytes, not their lossy UTF-8 decoding). */
export async function readlink(path: string): Promise<string> {
  const target = await fs.readlink(toNodePath(path), 'utf8');
  return target.includes(REPLACEMENT) ? pathFromBytes(await fs.readlink(toNodePath(path), 'buffer')) : target;
}

export function rmdir(path: string): Promise<void> {
  return fs.rmdir(toNodePath(path));
}

/** Sets a folder's permission bits through a descriptor opened without following a link at `path`. */
export async function chmodFolder(path: string, mode: number): Promise<void> {
  const handle = await fs.open(toNodePath(path), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    await handle.chmod(mode);
  } finally {
    await handle.close();
  }
}

export async function mkdir(path: string, options?: MakeDirectoryOptions): Promise<void> {
  await fs.mkdir(toNodePath(path), options);
}

/** The canonical real path, in the same form: its bytes, not their lossy UTF-8 decoding. */
export async function realpath(path: string): Promise<string> {
  const real = await fs.realpath(toNodePath(path), 'utf8');
  return real.includes(REPLACEMENT) ? pathFromBytes(await fs.realpath(toNodePath(path), 'buffer')) : real;
}

/** The names of a folder, each exact. */
export async function readdirNames(path: string): Promise<string[]> {
  const names = await fs.readdir(toNodePath(path), 'utf8');
  if (!names.some((name) => name.includes(REPLACEMENT))) return names;
  return (await fs.readdir(toNodePath(path), 'buffer')).map((name) => pathFromBytes(name));
}

/** An entry with its exact name and the type the folder gave for it. */
export interface ExactDirent {
  readonly name: string;
  readonly dirent: Dirent<string> | Dirent<Buffer>;
}

function exactEntries(entries: Dirent<string>[], again: () => Dirent<Buffer>[] | Promise<Dirent<Buffer>[]>): ExactDirent[] | Promise<ExactDirent[]> {
  if (!entries.some((entry) => entry.name.includes(REPLACEMENT))) return entries.map((dirent) => ({ name: dirent.name, dirent }));
  const bytes = again();
  const convert = (list: Dirent<Buffer>[]) => list.map((dirent) => ({ name: pathFromBytes(dirent.name), dirent }));
  return Array.isArray(bytes) ? convert(bytes) : bytes.then(convert);
}

/** The entries of a folder with their types, each name exact. */
export async function readdirEntries(path: string): Promise<ExactDirent[]> {
  const entries = await fs.readdir(toNodePath(path), { withFileTypes: true, encoding: 'utf8' });
  return exactEntries(entries, () => fs.readdir(toNodePath(path), { withFileTypes: true, encoding: 'buffer' }));
}
