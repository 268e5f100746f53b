import type { AsyncFileSystem, AtomicWriteOptions, AtomicWriteResult } from '@openwork/fs-backend';

/** What an outside process does at a chosen moment: before the n-th write or delete of the engine. */
export type RacingAction = (operation: 'write' | 'delete', path: string) => Promise<void> | void;

/**
 * The real `NodeFileSystem`, with an outside actor that gets to run just before each write and
 * delete: a racing editor or a vanished folder at a chosen step, made deterministic. Nothing is
 * faked: the engine's operations still run against the real files after the actor did its part.
 */
export class RacingFileSystem implements AsyncFileSystem {
  readonly #inner: AsyncFileSystem;
  readonly #race: RacingAction;

  constructor(inner: AsyncFileSystem, race: RacingAction) {
    this.#inner = inner;
    this.#race = race;
  }

  stat: AsyncFileSystem['stat'] = (path) => this.#inner.stat(path);
  lstat: AsyncFileSystem['lstat'] = (path) => this.#inner.lstat(path);
  realpath: AsyncFileSystem['realpath'] = (path) => this.#inner.realpath(path);
  readdir: AsyncFileSystem['readdir'] = (path, options) => this.#inner.readdir(path, options);
  mkdirp: AsyncFileSystem['mkdirp'] = (path) => this.#inner.mkdirp(path);
  readFile: AsyncFileSystem['readFile'] = (path, options) => this.#inner.readFile(path, options);
  readChunks: AsyncFileSystem['readChunks'] = (path, options) => this.#inner.readChunks(path, options);
  readLines: AsyncFileSystem['readLines'] = (path, options) => this.#inner.readLines(path, options);
  sha256File: AsyncFileSystem['sha256File'] = (path, options) => this.#inner.sha256File(path, options);

  async unlink(path: string): Promise<void> {
    await this.#race('delete', path);
    return this.#inner.unlink(path);
  }

  async atomicWrite(path: string, content: string | Uint8Array, options?: AtomicWriteOptions): Promise<AtomicWriteResult> {
    await this.#race('write', path);
    return this.#inner.atomicWrite(path, content, options);
  }
}
