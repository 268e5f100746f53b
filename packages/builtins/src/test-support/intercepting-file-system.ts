import { NodeFileSystem, type AsyncFileSystem } from '@openwork/fs-backend';

/** Called before each operation of the real file system, with the method name and its arguments. */
export type Interceptor = (operation: keyof AsyncFileSystem, args: readonly unknown[]) => void | Promise<void>;

/**
 * The real `NodeFileSystem`, with a hook before every call: tests use it to record which paths the
 * tools touch, or to let "another program" change a file at an exact moment (a deterministic race).
 */
export function interceptingFileSystem(intercept: Interceptor, real: AsyncFileSystem = new NodeFileSystem()): AsyncFileSystem {
  const wrap =
    <K extends keyof AsyncFileSystem>(operation: K) =>
    async (...args: unknown[]) => {
      await intercept(operation, args);
      return (real[operation] as (...parameters: unknown[]) => unknown).apply(real, args);
    };
  return {
    stat: wrap('stat') as AsyncFileSystem['stat'],
    lstat: wrap('lstat') as AsyncFileSystem['lstat'],
    realpath: wrap('realpath') as AsyncFileSystem['realpath'],
    readdir: wrap('readdir') as AsyncFileSystem['readdir'],
    mkdirp: wrap('mkdirp') as AsyncFileSystem['mkdirp'],
    unlink: wrap('unlink') as AsyncFileSystem['unlink'],
    readFile: wrap('readFile') as AsyncFileSystem['readFile'],
    readLines: wrap('readLines') as AsyncFileSystem['readLines'],
    sha256File: wrap('sha256File') as AsyncFileSystem['sha256File'],
    atomicWrite: wrap('atomicWrite') as AsyncFileSystem['atomicWrite'],
    readChunks: (...args) => {
      void intercept('readChunks', args);
      return real.readChunks(...args);
    },
  };
}
